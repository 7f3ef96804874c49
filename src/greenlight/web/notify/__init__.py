""" "Your turn" outside the tab: e-mail and Web Push notifications, reminders, and the "my tables" page (a room).

The room is :class:`greenlight.web.notify.room.NotifyRoom`.
"""
