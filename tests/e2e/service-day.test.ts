/**
 * The Service day view in a real browser (issue 48): a distributor adds a crew, plans tomorrow on the demo
 * fleet, sees the route drawn on the map (counted through the map's test hook, not from pixels), publishes,
 * and the crew's mail is in the outbox and delivered. Screenshots at 1440, 1024 and 390 px; axe.
 */
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { devices, outbox } from '../../server/src/db/schema.ts';
import { screenshot, seriousAxe, signInToMap, startE2E, type E2E } from './browser.ts';
import { mailText } from '../helpers/smtp.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});
afterEach(async () => {
  await e2e.closeContexts();
});

/** Rendered features of a layer through `window.__fleetMap` (-1: no such layer). */
const drawn = (page: Page, layer: string) =>
  page.evaluate((id) => {
    type Map = {
      getLayer(id: string): unknown;
      queryRenderedFeatures(options: { layers: string[] }): unknown[];
      getSource(id: string): { _data?: unknown; serialize?: () => { data?: { features?: unknown[] } } } | undefined;
    };
    const map = (window as unknown as { __fleetMap?: Map }).__fleetMap;
    if (!map || !map.getLayer(id)) return -1;
    return map.queryRenderedFeatures({ layers: [id] }).length;
  }, layer);

describe('Service day', () => {
  it('plans a day on the demo fleet, draws the route, publishes and mails the crew', async () => {
    const db = e2e.portal.harness.database.db;
    // Two demo devices run dry: the plan has work whatever the seeded history says.
    await db.update(devices).set({ volumeRemain: 0, leftPumpType: 'Sunscreen' }).where(eq(devices.serial, 'SP240003'));
    const page = await e2e.openPage({ width: 1440, height: 900 }, 'about:blank');
    await page.addInitScript(() => {
      (window as unknown as { __fleetMapHook: boolean }).__fleetMapHook = true;
    });
    await page.goto('/');
    await signInToMap(page, 'distributor@demo.test');
    await page.getByTestId('service-day-tile').click();
    const view = page.getByTestId('service-day');
    await expect.poll(() => view.isVisible()).toBe(true);

    // A crew, added through the form (a wrong one first: the field is named).
    await page.getByTestId('add-crew').click();
    const form = page.getByTestId('crew-form');
    await form.getByLabel('Name').fill('North van');
    await form.getByLabel('Email').fill('north.van@crew.test');
    await form.getByLabel('Depot address').fill('100 Depot Rd, New Orleans, LA');
    await form.getByLabel('Depot latitude').fill('29.98');
    await form.getByLabel('Depot longitude').fill('-90.1');
    await form.getByLabel('Start (depot time)').fill('17:00');
    await form.getByLabel('End (depot time)').fill('08:00');
    await form.getByRole('button', { name: 'Save crew' }).click();
    await expect.poll(() => form.textContent()).toContain('Working hours must end after they start.');
    await form.getByLabel('Start (depot time)').fill('08:00');
    await form.getByLabel('End (depot time)').fill('17:00');
    await form.getByRole('button', { name: 'Save crew' }).click();
    await expect.poll(() => page.getByTestId('service-message').textContent()).toBe('Crew added.');
    await expect.poll(() => view.getByText('North van').count()).toBeGreaterThan(0);

    await page.getByTestId('plan-button').click();
    await expect
      .poll(() => page.getByTestId('service-message').textContent(), { timeout: 30_000 })
      .toMatch(/^Planned: version 1, \d+ stops/);
    const stops = await page.getByTestId('stop').count();
    expect(stops).toBeGreaterThan(0);
    expect(await page.getByTestId('crew-plan').textContent()).toMatch(/Times in site time \(UTC-0[56]:00\)/);
    expect(await page.getByTestId('service-plan').textContent()).toContain('Left sunscreen pump is empty');
    // The route on the map: one line for the crew, one circle a stop.
    await expect.poll(() => drawn(page, 'service-route-line'), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => drawn(page, 'service-route-stop'), { timeout: 15_000 }).toBe(stops);

    await screenshot(page, 'service-day-1440');
    expect(await seriousAxe(page, '[data-testid="service-day"]')).toEqual([]);

    await page.getByTestId('publish-button').click();
    await expect
      .poll(() => page.getByTestId('service-message').textContent())
      .toBe('Published: each crew is mailed its plan (1 mail).');
    expect(await page.getByTestId('service-plan').getAttribute('data-status')).toBe('published');
    // The mail is recorded in the outbox, then delivered: a link to /maintenance (no credential) and a PDF.
    const planId = Number(await page.getByTestId('service-plan').getAttribute('data-plan-id'));
    const rows = await db
      .select({ jobName: outbox.jobName, key: outbox.idempotencyKey })
      .from(outbox)
      .where(eq(outbox.jobName, 'service-plan-mail'));
    expect(rows.filter((r) => r.key.startsWith(`service-plan:${planId}:`))).toHaveLength(1);
    await expect
      .poll(() => e2e.portal.harness.smtp.received.some((m) => m.to.includes('north.van@crew.test')), { timeout: 20_000 })
      .toBe(true);
    const mail = mailText(e2e.portal.harness.smtp.received.find((m) => m.to.includes('north.van@crew.test'))!.raw);
    expect(mail).toContain(`${e2e.portal.harness.config.publicUrl}/maintenance`);
    expect(mail).toMatch(/application\/pdf/i);

    for (const [width, height] of [
      [1024, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(300);
      await screenshot(page, `service-day-${width}`);
    }
  });
});
