/**
 * Brands and batches in a real browser (spec section 2: DEVICE LIST > BRAND, BATCH LIST and their popups;
 * sections 4, 5, 6, 8; issue 11). A distributor adds a brand with a real PNG logo and two clients, moves
 * devices into it with 'Add Device To {brand}', and deletes brands with and without a transfer; adds, edits
 * and deletes a batch through every validation message; recalls a batch in use and sees its devices warn
 * on the map and in the device list by push (the real push server, short poll periods), then resumes it.
 * A client has no add-batch button; a failing server call shows the failure popup. Screenshots go to
 * tests/.artifacts; axe checks each screen and dialog.
 */
import zlib from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  dismissPopup,
  mapData,
  recordResults,
  recordWholeListReads,
  resultText,
  screenshot,
  seriousAxe,
  signInToMap,
  startE2E,
  TABLET,
  type E2E,
} from './browser.ts';
import { apiTokens, startPortalPushes } from './server.ts';

let e2e: E2E;
let rt: Awaited<ReturnType<typeof startPortalPushes>>;
const tokens: Record<string, string> = {};
const DIST = 'distributor@demo.test';

beforeAll(async () => {
  e2e = await startE2E();
  // Pins and cards are polled faster than the spec's 20 s so the recall test stays short.
  rt = await startPortalPushes(e2e.portal, { device: 10_000, simLog: 15_000, deviceCards: 3_000, overview: 3_000 });
  Object.assign(tokens, await apiTokens(e2e.portal, [DIST, 'client@demo.test']));
});
afterAll(async () => {
  await e2e?.closeClients();
  await rt?.close().catch(() => undefined);
  await e2e?.close();
});
afterEach(async () => {
  await e2e.closeContexts();
});

type ApiDevice = {
  serial: string;
  label: string;
  brand: number | null;
  brand_name: string | null;
  location_id: number | null;
  batch: number | null;
  batch2Number: string | null;
  is_warning: boolean;
  is_pause: boolean;
  warning_lists: string[];
};
type ApiBrand = {
  id: number;
  name: string;
  image_url: string | null;
  clients: { email: string }[];
  deviceSerials: string[];
  device_count: number;
};
type ApiBatch = { id: number; batch_no: string; status: string; is_recalled: boolean; device_count: number; batchVolume: number };

const agent = () => request(e2e.portal.harness.app);
async function api<T>(path: string, email = DIST): Promise<T> {
  const res = await agent().get(path).set('Authorization', `Token ${tokens[email]}`);
  expect(res.status).toBe(200);
  return res.body as T;
}

// ---------------------------------------------------------------- a real PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A 48x48 RGB PNG: a sun on a sky, so the logo is visibly there in the screenshots. */
function logoPng(): Buffer {
  const size = 48;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const sun = (x - 24) ** 2 + (y - 24) ** 2 < 14 ** 2;
      row.set(sun ? [245, 166, 35] : [31, 111, 139], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------- page helpers

const dashboard = (page: Page) => page.getByTestId('dashboard-panel');
const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

const axeDialog = (page: Page) => seriousAxe(page, 'dialog[open]');

async function openApp(email = DIST, viewport?: { width: number; height: number }) {
  const page = await e2e.openPage(viewport);
  await signInToMap(page, email);
  await page.getByTestId('overview').waitFor({ timeout: 20_000 });
  // Result popups close themselves after 1-1.5 s, which a loaded machine can spend between two checks:
  // the page records each one it opens (resultText reads that record).
  await recordResults(page);
  return page;
}
async function openBrandList(page: Page) {
  await page.getByRole('tab', { name: 'DEVICE LIST' }).click();
  await dashboard(page).getByRole('tab', { name: 'BRAND' }).click();
  await page.getByTestId('brand-list').waitFor();
}
async function openBatchList(page: Page) {
  await page.getByRole('tab', { name: 'BATCH LIST' }).click();
  await page.getByTestId('batch-list').locator('article').first().waitFor();
}
const batchCard = (page: Page, number: string) => page.getByTestId('batch-list').locator(`article[data-batch="${number}"]`);

/** The message under the field labelled `label` (the one its control is described by), or null. */
async function fieldError(scope: Locator, label: string): Promise<string | null> {
  const ids = (await scope.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  for (const id of ids.split(' ').filter(Boolean)) {
    const message = scope.page().locator(`[id="${id}"][data-field-error]`);
    if (await message.count()) return message.textContent();
  }
  return null;
}

describe('brands', () => {
  it('adds a brand with a logo and two clients, transfers devices into it, and deletes it with a transfer', async () => {
    const page = await openApp();
    await openBrandList(page);
    const before = await api<ApiBrand[]>('/api/v1/brand');
    await expect.poll(() => page.getByTestId('brand-list').locator('button[data-brand]').count()).toBe(before.length);
    await screenshot(page, 'brands-list');
    expect(await seriousAxe(page, '[data-testid="dashboard-panel"]')).toEqual([]);

    // Delete is disabled until a brand is selected in edit mode; Pause looks disabled and does nothing.
    const tools = page.getByRole('group', { name: 'Brand actions' });
    await expect(tools.getByRole('button', { name: 'Delete' }).isDisabled()).resolves.toBe(true);
    await expect(tools.getByRole('button', { name: 'Pause' }).getAttribute('aria-disabled')).resolves.toBe('true');

    // ADD NEW BRAND: both messages first.
    await page.getByRole('button', { name: 'Add brand' }).click();
    const add = dialog(page, 'ADD NEW BRAND');
    await add.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => fieldError(add, 'Brand Name')).toBe('(Required)');
    await expect(add.getByText('Image Required').count()).resolves.toBe(1);
    await screenshot(page, 'brand-add-required');

    const name = 'Pelican Guard';
    await add.getByLabel('Brand Name').fill(name);
    await add.getByLabel('Brand image file').setInputFiles({ name: 'pelican.png', mimeType: 'image/png', buffer: logoPng() });
    await expect(add.getByRole('img', { name: /New logo pelican\.png/ }).count()).resolves.toBe(1);
    await add.getByLabel('Client 1').selectOption('client@demo.test');
    // A chosen client is disabled in the other slots.
    await expect(add.getByLabel('Client 2').locator('option[value="client@demo.test"]').isDisabled()).resolves.toBe(true);
    await add.getByLabel('Client 2').selectOption('client2@demo.test');
    await screenshot(page, 'brand-add-filled');
    expect(await axeDialog(page)).toEqual([]);
    await add.getByRole('button', { name: 'SAVE' }).click();
    await resultText(page, 'BRAND ADDED');
    await screenshot(page, 'brand-added');
    // The popup closes itself after 1 s.
    await expect.poll(() => dialog(page, 'BRAND ADDED').count(), { timeout: 4_000 }).toBe(0);

    const brand = (await api<ApiBrand[]>('/api/v1/brand')).find((b) => b.name === name)!;
    expect(brand.clients.map((c) => c.email).sort()).toEqual(['client2@demo.test', 'client@demo.test']);
    const logo = await agent().get(brand.image_url!);
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toContain('image/png');

    // The new brand is selected: logo, name, no devices yet, and the add-devices button.
    const selected = page.getByTestId('selected-brand');
    await expect.poll(() => selected.getByRole('heading', { name }).count()).toBe(1);
    // The dialog reads its rows a page at a time (GET /api/v1/devicePage), never the whole list (issue 46).
    const wholeListReads: string[] = [];
    const pageReads: string[] = [];
    const onRequest = (req: { url(): string }) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/v1/device' && !url.searchParams.has('serials')) wholeListReads.push(url.search);
      if (url.pathname === '/api/v1/devicePage') pageReads.push(url.search);
    };
    page.on('request', onRequest);
    await selected.getByRole('button', { name: `Add devices to ${name}` }).click();
    const transfer = dialog(page, `Add Device To ${name}`);
    await transfer.waitFor();
    const devices = await api<ApiDevice[]>('/api/v1/device');
    await expect.poll(() => transfer.locator('tbody tr').count()).toBe(devices.length);
    // Transfer needs a selected device.
    await expect(transfer.getByRole('button', { name: 'Transfer' }).isDisabled()).resolves.toBe(true);
    await expect(transfer.getByRole('status').textContent()).resolves.toBe('Select at least one device.');
    await expect(transfer.getByRole('button', { name: 'Remove Device' }).getAttribute('aria-disabled')).resolves.toBe('true');
    // District and Brand filters, then two devices of the result.
    const source = devices.find((d) => d.brand !== null && d.location_id !== null)!;
    await transfer.getByLabel('Brand', { exact: true }).selectOption(String(source.brand));
    await transfer.getByLabel('District', { exact: true }).selectOption(String(source.location_id));
    const expected = devices.filter((d) => d.brand === source.brand && d.location_id === source.location_id);
    await expect.poll(() => transfer.locator('tbody tr').count()).toBe(expected.length);
    await expect
      .poll(() => pageReads.some((q) => q.includes(`notBrand=${brand.id}`) && q.includes(`county=${source.location_id}`)))
      .toBe(true);
    page.off('request', onRequest);
    expect(wholeListReads).toEqual([]);
    const moved = expected.slice(0, 2).map((d) => d.serial);
    for (const serial of moved) await transfer.locator(`tr[data-serial="${serial}"] input[type="checkbox"]`).check();
    await expect(transfer.getByTestId('transfer-detail').textContent()).resolves.toContain(moved[1]);
    await screenshot(page, 'brand-transfer-devices');
    expect(await axeDialog(page)).toEqual([]);
    await transfer.getByRole('button', { name: 'Transfer' }).click();
    await resultText(page, 'DEVICES TRANSFERRED');
    for (const serial of moved)
      await expect.poll(async () => (await api<ApiDevice>(`/api/v1/device/${serial}`)).brand).toBe(brand.id);
    // The selected brand now counts them by county.
    await expect.poll(() => selected.textContent()).toContain('2 devices');
    await expect.poll(() => selected.locator('[data-county]').count()).toBe(1);
    await screenshot(page, 'brand-selected');

    // Delete with a transfer: Edit, Delete, Yes, pick a brand, confirm.
    await tools.getByRole('button', { name: 'Edit' }).click();
    await tools.getByRole('button', { name: 'Delete' }).click();
    await dialog(page, 'Transfer the devices to another brand?').getByRole('button', { name: 'Yes' }).click();
    const pick = dialog(page, /^Transfer the 2 devices of/);
    const target = before.find((b) => b.id !== brand.id)!;
    await pick.getByLabel('Transfer to').selectOption(String(target.id));
    await screenshot(page, 'brand-delete-transfer');
    expect(await axeDialog(page)).toEqual([]);
    await pick.getByRole('button', { name: 'Continue' }).click();
    const confirm = dialog(page, `Are you sure you want to delete the ${name} ?`);
    await expect(confirm.textContent()).resolves.toContain(`move to ${target.name}`);
    await screenshot(page, 'brand-delete-confirm');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await resultText(page, 'BRAND DELETED');
    expect((await api<ApiBrand[]>('/api/v1/brand')).some((b) => b.id === brand.id)).toBe(false);
    for (const serial of moved) expect((await api<ApiDevice>(`/api/v1/device/${serial}`)).brand).toBe(target.id);
    await expect.poll(() => page.getByTestId('selected-brand').count()).toBe(0);
  });

  it('deletes a brand without devices straight from the confirmation, and says so when deleting fails', async () => {
    const made = await agent()
      .post('/api/v1/addBrand')
      .set('Authorization', `Token ${tokens[DIST]}`)
      .field('name', 'Empty Cove')
      .attach('image', logoPng(), { filename: 'cove.png', contentType: 'image/png' });
    expect(made.status).toBe(201);
    const page = await openApp();
    await openBrandList(page);
    await page.getByPlaceholder('Name').fill('empty  COVE');
    await expect.poll(() => page.getByTestId('brand-list').locator('button[data-brand]').count()).toBe(1);
    await page.getByTestId('brand-list').locator(`button[data-brand="${made.body.id}"]`).click();
    const tools = page.getByRole('group', { name: 'Brand actions' });
    await tools.getByRole('button', { name: 'Edit' }).click();

    // First a failing server: 'Something went wrong.'
    await page.route('**/api/v1/deleteBrand/**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"boom"}' }),
    );
    await tools.getByRole('button', { name: 'Delete' }).click();
    await dialog(page, 'Are you sure you want to delete the Empty Cove ?').getByRole('button', { name: 'Yes' }).click();
    await resultText(page, 'Something went wrong.');
    await screenshot(page, 'brand-delete-failed');
    await page.unroute('**/api/v1/deleteBrand/**');
    await expect.poll(() => dialog(page, 'Something went wrong.').count(), { timeout: 4_000 }).toBe(0);

    // No devices: no transfer question.
    await tools.getByRole('button', { name: 'Delete' }).click();
    expect(await dialog(page, 'Transfer the devices to another brand?').count()).toBe(0);
    await dialog(page, 'Are you sure you want to delete the Empty Cove ?').getByRole('button', { name: 'Yes' }).click();
    await resultText(page, 'BRAND DELETED');
    expect((await api<ApiBrand[]>('/api/v1/brand')).some((b) => b.id === made.body.id)).toBe(false);
    await expect.poll(() => page.getByTestId('brand-list').locator('button[data-brand]').count()).toBe(0);
  });

  it('edits a brand in its details dialog, and a failing save shows FAIL TO ADD BRAND', async () => {
    const page = await openApp(DIST, TABLET);
    await openBrandList(page);
    const brands = await api<ApiBrand[]>('/api/v1/brand');
    const brand = brands.find((b) => b.clients.length > 0)!;
    await page.getByTestId('brand-list').locator(`button[data-brand="${brand.id}"]`).click();
    await screenshot(page, 'brands-tablet');
    expect(await seriousAxe(page, '[data-testid="dashboard-panel"]')).toEqual([]);
    await page.getByRole('group', { name: 'Brand actions' }).getByRole('button', { name: 'Detail' }).click();
    const details = dialog(page, `Brand details: ${brand.name}`);
    await expect(details.getByLabel('Brand Name').inputValue()).resolves.toBe(brand.name);
    await expect(details.getByLabel('Client 1').inputValue()).resolves.toBe(brand.clients[0]!.email);
    await details.getByLabel('Brand Name').fill('');
    await details.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => fieldError(details, 'Brand Name')).toBe('(Required)');
    await details.getByLabel('Brand Name').fill(`${brand.name} Co`);
    await screenshot(page, 'brand-details-tablet');
    expect(await axeDialog(page)).toEqual([]);
    await details.getByRole('button', { name: 'SAVE' }).click();
    await resultText(page, 'BRAND EDITED');
    await expect.poll(async () => (await api<ApiBrand>(`/api/v1/brand/${brand.id}`)).name).toBe(`${brand.name} Co`);
    // The devices' brand names follow (re-read at once).
    await expect.poll(() => page.getByTestId('selected-brand').getByRole('heading').textContent()).toBe(`${brand.name} Co`);

    await page.route('**/api/v1/addBrand', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Server error."}' }),
    );
    await page.getByRole('button', { name: 'Add brand' }).click();
    const add = dialog(page, 'ADD NEW BRAND');
    await add.getByLabel('Brand Name').fill('Never Saved');
    await add.getByLabel('Brand image file').setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: logoPng() });
    await add.getByRole('button', { name: 'SAVE' }).click();
    await resultText(page, 'FAIL TO ADD BRAND');
    await screenshot(page, 'brand-add-failed');
    // The form stays open with what was typed.
    await expect.poll(() => dialog(page, 'FAIL TO ADD BRAND').count(), { timeout: 4_000 }).toBe(0);
    await expect(add.getByLabel('Brand Name').inputValue()).resolves.toBe('Never Saved');
  });
});

/** Presses Tab until `name`d control has the focus; answers whether its focus ring shows. */
async function tabTo(page: Page, name: string, max = 25): Promise<boolean> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const ring = await page.evaluate((wanted) => {
      const el = document.activeElement as HTMLElement | null;
      const label = el?.getAttribute('aria-label') ?? el?.textContent?.trim();
      return label === wanted ? getComputedStyle(el!).outlineStyle : null;
    }, name);
    if (ring !== null) return ring !== 'none';
  }
  throw new Error(`${name} never got the keyboard focus`);
}

describe('keyboard', () => {
  it('reaches the brand tiles, the add-devices dialog, the add-batch button and their dialogs with a visible focus ring (tablet)', async () => {
    const page = await openApp(DIST, TABLET);
    await openBrandList(page);
    const brand = (await api<ApiBrand[]>('/api/v1/brand')).sort((a, b) => a.name.localeCompare(b.name))[0]!;
    await page.getByPlaceholder('Name').focus();
    expect(await tabTo(page, brand.name)).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('brand-list').locator(`button[data-brand="${brand.id}"]`).getAttribute('aria-pressed'))
      .toBe('true');
    expect(await tabTo(page, `Add devices to ${brand.name}`)).toBe(true);
    await page.keyboard.press('Enter');
    const transfer = dialog(page, `Add Device To ${brand.name}`);
    await transfer.waitFor();
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('dialog[open]'))).toBe(true);
    await screenshot(page, 'brand-transfer-tablet');
    expect(await axeDialog(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => transfer.count()).toBe(0);

    await page.getByRole('tab', { name: 'BATCH LIST' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('batch-list').locator('article').first().waitFor();
    expect(await tabTo(page, 'Add batch')).toBe(true);
    await page.keyboard.press('Enter');
    const add = dialog(page, 'ADD NEW BATCH');
    await add.waitFor();
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('dialog[open]'))).toBe(true);
    await screenshot(page, 'batch-add-tablet');
    await page.keyboard.press('Escape');
    await expect.poll(() => add.count()).toBe(0);
  });
});

describe('batches', () => {
  it('adds, edits and deletes a batch through every validation message', async () => {
    const page = await openApp();
    await openBatchList(page);
    const batches = await api<ApiBatch[]>('/api/v1/batch');
    await expect.poll(() => page.getByTestId('batch-list').locator('article').count()).toBe(batches.length);
    // Expired batches last, dimmed.
    const order = await page
      .getByTestId('batch-list')
      .locator('article')
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.expired === 'true'));
    expect(order).toEqual([...order].sort((a, b) => Number(a) - Number(b)));
    await screenshot(page, 'batches-list');
    expect(await seriousAxe(page, '[data-testid="dashboard-panel"]')).toEqual([]);
    await page.getByTestId('batch-list').locator('article').last().scrollIntoViewIfNeeded();
    await screenshot(page, 'batches-list-end');

    await page.getByRole('button', { name: 'Add batch' }).click();
    const add = dialog(page, 'ADD NEW BATCH');
    await add.getByRole('button', { name: 'SAVE' }).click();
    for (const label of ['Batch Type', 'Batch Number', 'Install Date', 'Expiry Date', 'Batch Volume (fl.oz.)']) {
      await expect.poll(() => fieldError(add, label), { timeout: 3_000 }).toBe('Required');
    }
    await screenshot(page, 'batch-add-required');
    expect(await axeDialog(page)).toEqual([]);

    // A number already used (ignoring case and spaces).
    await add.getByLabel('Batch Type').selectOption('1');
    await add.getByLabel('Batch Number').fill(` ${batches[0]!.batch_no.toLowerCase()} `);
    await add.getByLabel('Install Date').fill('2026-10-01');
    await add.getByLabel('Expiry Date').fill('2028-10-01');
    await add.getByLabel('Batch Volume (fl.oz.)').fill('640');
    await add.getByRole('button', { name: 'SAVE' }).click();
    await resultText(page, 'FAIL TO ADD BATCH');
    await expect.poll(() => fieldError(add, 'Batch Number')).toBe('already has batch number');
    await screenshot(page, 'batch-add-duplicate');
    await expect.poll(() => dialog(page, 'FAIL TO ADD BATCH').count(), { timeout: 5_000 }).toBe(0);

    await add.getByLabel('Batch Number').fill('E2E-101');
    await add.getByRole('button', { name: 'SAVE' }).click();
    await resultText(page, 'BATCH ADDED');
    await expect.poll(() => batchCard(page, 'E2E-101').count()).toBe(1);
    const card = batchCard(page, 'E2E-101');
    await expect(card.getByTestId('batch-state').textContent()).resolves.toBe('Not In Use');
    await expect(card.textContent()).resolves.toContain('640 fl.oz.');
    await expect.poll(() => dialog(page, 'BATCH ADDED').count(), { timeout: 5_000 }).toBe(0);

    // Edit: the type is fixed; a blank number is 'Required'.
    await card.getByRole('button', { name: 'EDIT BATCH E2E-101' }).click();
    const edit = dialog(page, 'Edit Batch');
    await expect(edit.getByLabel('Batch Type').getAttribute('readonly')).resolves.not.toBeNull();
    await expect(edit.getByLabel('Batch Type').inputValue()).resolves.toBe('Sunscreen');
    await edit.getByLabel('Batch Number').fill('');
    await edit.getByLabel('Batch Volume (fl.oz.)').fill('');
    await edit.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => fieldError(edit, 'Batch Number')).toBe('Required');
    await expect.poll(() => fieldError(edit, 'Batch Volume (fl.oz.)')).toBe('Required');
    await edit.getByLabel('Batch Number').fill('E2E-102');
    await edit.getByLabel('Batch Volume (fl.oz.)').fill('1280');
    await screenshot(page, 'batch-edit');
    expect(await axeDialog(page)).toEqual([]);
    await edit.getByRole('button', { name: 'SAVE' }).click();
    await resultText(page, 'BATCH EDITED');
    await expect.poll(() => batchCard(page, 'E2E-102').textContent()).toContain('1,280 fl.oz.');
    await expect.poll(() => dialog(page, 'BATCH EDITED').count(), { timeout: 5_000 }).toBe(0);

    // Delete: the question, then BATCH DELETED for 2 s.
    await batchCard(page, 'E2E-102').getByRole('button', { name: 'EDIT BATCH E2E-102' }).click();
    await dialog(page, 'Edit Batch').getByRole('button', { name: 'DELETE' }).click();
    const question = dialog(page, 'Do you want to remove this Batch?');
    await screenshot(page, 'batch-delete-question');
    await question.getByRole('button', { name: 'Yes' }).click();
    const deleted = dialog(page, 'BATCH DELETED');
    await expect.poll(() => deleted.textContent()).toContain('Batch deleted successfully.');
    await screenshot(page, 'batch-deleted');
    await expect.poll(() => deleted.count(), { timeout: 5_000 }).toBe(0);
    await expect.poll(() => batchCard(page, 'E2E-102').count()).toBe(0);
    expect((await api<ApiBatch[]>('/api/v1/batch')).some((b) => b.batch_no === 'E2E-102')).toBe(false);

    // A batch in use cannot go: FAIL TO DELETE BATCH / 'Failed to delete batch.'.
    const inUse = batches.find((b) => b.device_count > 0)!;
    await batchCard(page, inUse.batch_no)
      .getByRole('button', { name: `EDIT BATCH ${inUse.batch_no}` })
      .click();
    await dialog(page, 'Edit Batch').getByRole('button', { name: 'DELETE' }).click();
    await dialog(page, 'Do you want to remove this Batch?').getByRole('button', { name: 'Yes' }).click();
    const failed = dialog(page, 'FAIL TO DELETE BATCH');
    await expect.poll(() => failed.textContent()).toContain('Failed to delete batch.');
    await screenshot(page, 'batch-delete-failed');
    await expect.poll(() => failed.count(), { timeout: 5_000 }).toBe(0);
  });

  it('recalls a batch in use: its devices warn on the map and in the device list by push, and RESUME lifts it', async () => {
    const page = await openApp();
    const wholeListReads = recordWholeListReads(page);
    const devices = await api<ApiDevice[]>('/api/v1/device');
    const batches = await api<ApiBatch[]>('/api/v1/batch');
    const fed = (b: ApiBatch) => devices.filter((d) => d.batch === b.id || d.batch2Number === b.batch_no);
    // A batch in use with devices that do not warn yet: each of their pins turns.
    const calm = (b: ApiBatch) => fed(b).filter((d) => !d.is_warning && !d.is_pause);
    const batch = batches.find((b) => b.status === 'IN_USE' && !b.is_recalled && calm(b).length > 0)!;
    expect(batch).toBeDefined();
    const affected = fed(batch);
    const turning = calm(batch);
    const warningPins = async () => (JSON.parse((await mapData(page)).pinCounts ?? '{}') as Record<string, number>).warning ?? 0;
    const before = await warningPins();

    await openBatchList(page);
    await batchCard(page, batch.batch_no)
      .getByRole('button', { name: `RECALL BATCH ${batch.batch_no}` })
      .click();
    const ask = dialog(page, `Recall BATCH ${batch.batch_no}?`);
    await expect.poll(() => ask.getByTestId('recall-devices').locator('li').count()).toBe(affected.length);
    // Listed and counted by the server (devicePage's batch filter): the whole device list is never read.
    expect(await ask.getByTestId('recall-devices-count').textContent()).toBe(
      `${affected.length} device${affected.length === 1 ? '' : 's'}`,
    );
    expect(
      await ask
        .getByTestId('recall-devices')
        .locator('li')
        .evaluateAll((items) => items.map((li) => li.getAttribute('data-serial')).sort()),
    ).toEqual(affected.map((d) => d.serial).sort());
    await expect(ask.getByRole('checkbox', { name: /Also pause/ }).isChecked()).resolves.toBe(false);
    await screenshot(page, 'batch-recall-question');
    expect(await axeDialog(page)).toEqual([]);
    await ask.getByRole('button', { name: 'RECALL' }).click();
    const done = dialog(page, 'Recall batch success!');
    await done.waitFor();
    await expect(done.textContent()).resolves.toContain('Notified');
    await screenshot(page, 'batch-recalled');
    await dismissPopup(done);
    await expect.poll(() => batchCard(page, batch.batch_no).getByTestId('batch-state').textContent()).toBe('Expired / Recalled');
    await expect(batchCard(page, batch.batch_no).getAttribute('data-tone')).resolves.toBe('expired');
    await screenshot(page, 'batches-after-recall');
    // The Batch List, the question and the recall never read the whole device list.
    expect(wholeListReads).toEqual([]);

    // The pins turn within one poll period, by push (no reload).
    await expect.poll(warningPins, { timeout: 10_000 }).toBe(before + turning.length);
    // The device list says why.
    await page.getByRole('tab', { name: 'OVERVIEW' }).click();
    await page.getByTestId('tile-warning').click();
    await page.getByPlaceholder('Name or Serial').fill(turning[0]!.serial);
    await expect.poll(() => page.getByTestId('filter-list').textContent(), { timeout: 10_000 }).toContain('Batch recalled');
    await screenshot(page, 'batch-recall-warning-list');
    await page.getByRole('button', { name: 'Back to the dashboard' }).click();

    // RESUME lifts the warnings the same way.
    await page.getByRole('tab', { name: 'BATCH LIST' }).click();
    await batchCard(page, batch.batch_no)
      .getByRole('button', { name: `RESUME BATCH ${batch.batch_no}` })
      .click();
    await dialog(page, `Resume BATCH ${batch.batch_no}?`).getByRole('button', { name: 'RESUME' }).click();
    await resultText(page, 'Resume batch success!');
    await screenshot(page, 'batch-resumed');
    await dismissPopup(dialog(page, 'Resume batch success!'));
    await expect.poll(() => batchCard(page, batch.batch_no).getByTestId('batch-state').textContent()).toBe('In Use');
    await expect.poll(warningPins, { timeout: 10_000 }).toBe(before);
  });

  it('a client sees its batches with no add-batch, RECALL or EDIT button', async () => {
    const page = await openApp('client@demo.test', TABLET);
    await openBatchList(page);
    const batches = await api<ApiBatch[]>('/api/v1/batch', 'client@demo.test');
    await expect.poll(() => page.getByTestId('batch-list').locator('article').count()).toBe(batches.length);
    expect(await page.getByRole('button', { name: 'Add batch' }).count()).toBe(0);
    expect(
      await page
        .getByTestId('batch-list')
        .getByRole('button', { name: /^(RECALL|EDIT) BATCH/ })
        .count(),
    ).toBe(0);
    await screenshot(page, 'batches-client-tablet');
    expect(await seriousAxe(page, '[data-testid="dashboard-panel"]')).toEqual([]);
    // The Brand filter narrows the list to batches feeding that brand's devices.
    const brands = await api<ApiBrand[]>('/api/v1/brand', 'client@demo.test');
    await page.getByTestId('batch-list').getByLabel('Brand').selectOption(String(brands[0]!.id));
    const withBrand = (await api<(ApiBatch & { brand_lists: { id: number }[] })[]>('/api/v1/batch', 'client@demo.test')).filter(
      (b) => b.brand_lists.some((x) => x.id === brands[0]!.id),
    );
    await expect.poll(() => page.getByTestId('batch-list').locator('article').count()).toBe(withBrand.length);
  });

  it('a failing server call shows the failure popup', async () => {
    const page = await openApp();
    await openBatchList(page);
    await page.route('**/api/v1/addBatch', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Server error."}' }),
    );
    await page.getByRole('button', { name: 'Add batch' }).click();
    const add = dialog(page, 'ADD NEW BATCH');
    await add.getByLabel('Batch Type').selectOption('2');
    await add.getByLabel('Batch Number').fill('E2E-500');
    await add.getByLabel('Install Date').fill('2026-10-01');
    await add.getByLabel('Expiry Date').fill('2027-10-01');
    await add.getByLabel('Batch Volume (fl.oz.)').fill('100');
    await add.getByRole('button', { name: 'SAVE' }).click();
    const failed = dialog(page, 'FAIL TO ADD BATCH');
    await expect.poll(() => failed.textContent()).toContain('Server error.');
    await screenshot(page, 'batch-add-failed');
    expect(await axeDialog(page)).toEqual([]);
  });
});
