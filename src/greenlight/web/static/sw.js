// Greenlight's service worker: shows "your turn" push notifications and, on a click, focuses the table's tab if one
// is open, else opens it (as lichess's does). Payloads are JSON: {title, body, url, tag}, encrypted by the server for
// this browser's subscription (RFC 8291); the push service cannot read them.
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { title: "Greenlight", body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Your turn";
  const options = { body: data.body || "", tag: data.tag || "greenlight", data: { url: data.url || "/my-tables" }, icon: "/static/favicon.svg" };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url ? event.notification.data.url : "/my-tables", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        const open = new URL(client.url);
        if (open.origin === url.origin && open.pathname === url.pathname && "focus" in client) {
          if (url.hash && client.url !== url.href && "navigate" in client) return client.navigate(url.href).then((found) => found && found.focus());
          return client.focus();
        }
      }
      return self.clients.openWindow(url.href);
    })
  );
});
