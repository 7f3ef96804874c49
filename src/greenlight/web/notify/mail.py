"""E-mail: the messages (plain text and HTML, every link and unsubscribe link in both) and sending them by SMTP.

Sending uses the standard library's ``smtplib`` in a worker thread, each connection bounded by a timeout, so a slow or
failing mail server holds one sender thread and nothing else.
"""

from __future__ import annotations

import email.policy
import html
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import parse_qs, unquote, urlsplit


@dataclass(frozen=True, slots=True)
class SmtpServer:
    """Where e-mail goes: ``smtp://user@host:587`` (STARTTLS when the server offers it), ``smtps://host:465`` (TLS from
    the start), ``smtp://host:25?tls=none`` (plain: a relay on this machine)."""

    host: str
    port: int
    user: str
    password: str
    tls: str
    sender: str
    timeout: float

    @classmethod
    def from_url(cls, url: str, password: str, sender: str, timeout: float) -> SmtpServer:
        """Read the ``--smtp`` setting (a ValueError names what is wrong).

        >>> server = SmtpServer.from_url("smtp://games@mail.example.org:587", "secret", "Greenlight <games@example.org>", 10)
        >>> server.host, server.port, server.user, server.tls
        ('mail.example.org', 587, 'games', 'starttls')
        """
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"--smtp must look like smtp://user@host:587 or smtps://host:465, not {url!r}")
        query = parse_qs(parts.query)
        tls = "ssl" if parts.scheme == "smtps" else query.get("tls", ["starttls"])[0]
        if tls not in ("starttls", "ssl", "none"):
            raise ValueError(f"--smtp's tls= is starttls, ssl or none, not {tls!r}")
        if not sender or "@" not in sender:
            raise ValueError("--smtp-from needs the sender's address (Greenlight <games@example.org>)")
        port = parts.port or (465 if tls == "ssl" else 587 if parts.username else 25)
        return cls(parts.hostname, port, unquote(parts.username or ""), password, tls, sender, timeout)

    def send(self, message: EmailMessage) -> None:
        """Send one message (blocking: call it in a worker thread); raises ``OSError``/``smtplib.SMTPException``."""
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if self.tls == "ssl":
            client = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        with client:
            if self.tls == "starttls" and client.has_extn("starttls"):
                client.starttls(context=context)
            if self.user:
                client.login(self.user, self.password)
            client.send_message(message)


@dataclass(frozen=True, slots=True)
class Waiting:
    """One table where it is the reader's turn, as a message tells it."""

    title: str
    seat_name: str
    others: str
    asked: str
    deadline: str
    link: str
    unsubscribe: str


def turn_message(sender: str, to: str, tables: list[Waiting], unsubscribe_all: str, *, reminder: bool) -> EmailMessage:
    """One message telling of every table waiting for the reader (or reminding them of deadlines)."""
    count = len(tables)
    if reminder:
        subject = "Your time runs out soon at " + (tables[0].title if count == 1 else f"{count} tables")
        opening = "Your time for a decision runs out soon:" if count == 1 else f"Your time runs out soon at {count} tables:"
    else:
        subject = "Your turn at " + (tables[0].title if count == 1 else f"{count} tables")
        opening = "It is your turn:" if count == 1 else f"It is your turn at {count} tables:"
    lines = [opening, ""]
    items = []
    for table in tables:
        lines += [f"{table.title}, as {table.seat_name} (with {table.others})", f"  {table.asked}"]
        if table.deadline:
            lines.append(f"  {table.deadline}")
        lines += [f"  Play: {table.link}", f"  No more messages about this table: {table.unsubscribe}", ""]
        deadline = f"<br>{html.escape(table.deadline)}" if table.deadline else ""
        items.append(
            f'<li><p><a href="{html.escape(table.link)}"><strong>{html.escape(table.title)}</strong></a>, as {html.escape(table.seat_name)}'
            f" (with {html.escape(table.others)})<br>{html.escape(table.asked)}{deadline}</p>"
            f'<p><a href="{html.escape(table.link)}">Play</a> · '
            f'<a href="{html.escape(table.unsubscribe)}">No more messages about this table</a></p></li>'
        )
    lines += ["The link opens your seat: keep it to yourself.", f"Never e-mail me again: {unsubscribe_all}"]
    body_html = (
        f"<p>{html.escape(opening)}</p><ul>{''.join(items)}</ul>"
        "<p>The link opens your seat: keep it to yourself.</p>"
        f'<p><a href="{html.escape(unsubscribe_all)}">Never e-mail me again</a></p>'
    )
    return _message(sender, to, subject, "\n".join(lines), body_html, unsubscribe_all)


def confirm_message(sender: str, to: str, confirm: str, unsubscribe_all: str, where: str) -> EmailMessage:
    """The message that asks an address to confirm it wants to hear of its turns."""
    text = (
        f"Someone asked Greenlight to e-mail this address when it is their turn at {where}.\n\n"
        f"If it was you, confirm: {confirm}\n\n"
        f"If it was not, ignore this message, or never hear from this server again: {unsubscribe_all}\n"
    )
    body_html = (
        f"<p>Someone asked Greenlight to e-mail this address when it is their turn at {html.escape(where)}.</p>"
        f'<p>If it was you, <a href="{html.escape(confirm)}">confirm</a>.</p>'
        f'<p>If it was not, ignore this message, or <a href="{html.escape(unsubscribe_all)}">never hear from this server again</a>.</p>'
    )
    return _message(sender, to, "Confirm your turn notifications", text, body_html, unsubscribe_all)


def password_message(sender: str, to: str, name: str, link: str, minutes: int) -> EmailMessage:
    """The message with a link to choose a new password (asked for on the account page; nothing to unsubscribe from)."""
    text = (
        f"Someone asked to choose a new password for the Greenlight account {name}.\n\n"
        f"If it was you, choose it here within {minutes} minutes (the link works once): {link}\n\n"
        "If it was not, ignore this message: the password stays as it is.\n"
    )
    body_html = (
        f"<p>Someone asked to choose a new password for the Greenlight account <strong>{html.escape(name)}</strong>.</p>"
        f'<p>If it was you, <a href="{html.escape(link)}">choose it here</a> within {minutes} minutes (the link works once).</p>'
        "<p>If it was not, ignore this message: the password stays as it is.</p>"
    )
    return _message(sender, to, "Choose a new Greenlight password", text, body_html, None)


def _message(sender: str, to: str, subject: str, text: str, body_html: str, unsubscribe: str | None) -> EmailMessage:
    # Lines up to SMTP's own limit: a long unsubscribe URL stays one plain header a mail program can read.
    message = EmailMessage(policy=email.policy.SMTP.clone(max_line_length=998))
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip("> ") or None)
    if unsubscribe is not None:
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058: the mail program unsubscribes with a POST
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(text)
    message.add_alternative(f"<!doctype html><html><body>{body_html}</body></html>", subtype="html")
    return message
