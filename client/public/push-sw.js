/*
 * The portal's Web Push worker (issue 43). Registered from Account Settings with the scope /push/, which
 * holds no page: it controls nothing and answers no fetch, so the field app's worker (scope /maintenance)
 * and the portal's pages are untouched. It shows each push as a notification; a click opens the portal.
 */
self.addEventListener('push', (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { title: 'Fleet portal', body: event.data ? event.data.text() : '' };
  }
  const title = notice.title || 'Fleet portal incident';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: notice.body || '',
      tag: notice.tag || undefined,
      data: { url: notice.url || '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/';
  event.waitUntil(self.clients.openWindow(url));
});
