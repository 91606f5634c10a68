/**
 * Realtime into the map: a stand-in push server (Socket.IO on the shared realtime contract) attached to
 * the test portal acknowledges subscriptions and pushes device:changed; the pins change without a
 * reload, and after a dropped connection the client subscribes again and re-fetches its snapshot.
 */
import type { ClientToServerEvents, ServerToClientEvents, Subscription } from '@fleet/shared';
import { Server, type Socket } from 'socket.io';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mapData, signInToMap, startE2E, type E2E } from './browser.ts';

let e2e: E2E;
let io: Server<ClientToServerEvents, ServerToClientEvents>;
const sockets: Socket<ClientToServerEvents, ServerToClientEvents>[] = [];
const subscriptions: Subscription[] = [];
const handshakeTokens: unknown[] = [];

beforeAll(async () => {
  e2e = await startE2E();
  io = new Server(e2e.portal.server, { path: '/socket.io' });
  io.on('connection', (socket) => {
    handshakeTokens.push(socket.handshake.auth.token);
    sockets.push(socket);
    socket.on('subscribe', (subscription, ack) => {
      subscriptions.push(subscription);
      ack({ ok: true, subscribed: subscription.topic === 'deviceCards' ? subscription.serials : [subscription.topic] });
    });
  });
});
afterAll(async () => {
  // The browser and its connections first, as the other browser files do: socket.io's close waits for every
  // connection still open on the HTTP server (a kept tab's), and once waited out the 180 s hook timeout here.
  await e2e?.closeClients();
  await new Promise<void>((resolve) => io?.close(() => resolve()));
  await e2e?.close();
});
afterEach(async () => {
  await e2e.closeContexts();
});

type ApiDevice = { serial: string; is_pause: boolean; is_warning: boolean; location: unknown };

describe('realtime pins', () => {
  it('subscribes to the pin deltas and the overview, and applies pushed changes without a reload; re-syncs after a reconnect', async () => {
    const page = await e2e.openPage();
    const deviceFetches: number[] = [];
    page.on('request', (request) => {
      // The map's fleet comes from the compact pin feed (the full list only when a list view opens).
      if (new URL(request.url()).pathname === '/api/v1/devicePins') deviceFetches.push(Date.now());
    });
    await signInToMap(page, 'distributor@demo.test');
    const token = (await page.context().cookies()).find((c) => c.name === 'userToken')?.value;
    await expect.poll(() => handshakeTokens.includes(token)).toBe(true);

    const devices = (
      (await (await page.request.get('/api/v1/device', { headers: { Authorization: `Token ${token}` } })).json()) as ApiDevice[]
    ).filter((d) => d.location);
    await expect.poll(() => subscriptions.some((s) => s.topic === 'overview')).toBe(true);
    // The map's pins follow their own deltas (topic pins): the map alone asks for no device's cards (issue 46).
    await expect.poll(() => subscriptions.some((s) => s.topic === 'pins')).toBe(true);
    expect(subscriptions.filter((s) => s.topic === 'deviceCards')).toEqual([]);

    const counts = async () => JSON.parse((await mapData(page)).pinCounts ?? '{}') as Record<string, number>;
    const before = await counts();
    const paused = devices.find((d) => d.is_pause)!;
    const regular = devices.filter((d) => !d.is_pause && !d.is_warning).slice(0, 3);
    const at = new Date().toISOString();
    // A burst: the last value per field wins, applied in one store update.
    for (const socket of sockets) {
      socket.emit('device:changed', {
        serial: paused.serial,
        patch: { is_pause: false, is_warning: false, is_online: false },
        at,
      });
      for (const device of regular) socket.emit('device:changed', { serial: device.serial, patch: { is_pause: false }, at });
      for (const device of regular) socket.emit('device:changed', { serial: device.serial, patch: { is_pause: true }, at });
    }
    await expect.poll(counts).toEqual({
      ...before,
      paused: before.paused! - 1 + regular.length,
      offline: before.offline! + 1,
      normal: before.normal! - regular.length,
    });
    expect(deviceFetches).toHaveLength(1);

    // Drop the connection: the client reconnects by itself, subscribes again and re-fetches.
    const subscribedBefore = subscriptions.length;
    for (const socket of sockets.splice(0)) socket.conn.close();
    await expect.poll(() => subscriptions.length, { timeout: 15_000 }).toBeGreaterThan(subscribedBefore);
    await expect.poll(() => deviceFetches.length, { timeout: 15_000 }).toBe(2);
    // The snapshot wins over the pushed values (the stand-in server never wrote them).
    await expect.poll(counts).toEqual(before);
  });
});
