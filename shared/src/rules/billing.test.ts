import { describe, expect, it } from 'vitest';
import { billSchema, checkoutTotalUsd, createBillSchema, fieldErrors, unsubscriptionListSchema } from '../index.ts';
import {
  BILLABLE_PLANS,
  billTotalUsd,
  daysPastDue,
  deactivationDay,
  deactivationDue,
  lastDeactivatingDueDate,
  PLAN_CATALOGUE,
  planOf,
  planPriceText,
} from './billing.ts';

describe('plan catalogue (spec section 9)', () => {
  it('carries the prices of section 9, per device per month unless flat', () => {
    const price = Object.fromEntries(PLAN_CATALOGUE.map((p) => [p.name, p.priceUsd]));
    expect(price).toEqual({
      'Basic Plan (Contract)': 17,
      'Sim Card': 5,
      Maintenance: 7.5,
      '8x7 support': 1980,
      'Vandalism Deactivation': 7.5,
      'BLE Tracking': 3,
      'Digital Content Management': null,
      'PIR Auto On/Face Counting': null,
      Geolocation: null,
      'Geo Blocking': null,
      'Face detection and trigger': null,
    });
    expect(planOf('maintenance')).toMatchObject({ maxDevices: 500, pricing: 'per-device' });
    expect(planOf('support-plan')).toMatchObject({ maxDevices: 500, pricing: 'flat', name: '8x7 support' });
    // Section 9: "Vandalism Deactivation 7.5 (new), BLE Tracking 3": one 'new' plan only.
    expect(PLAN_CATALOGUE.filter((p) => p.isNew).map((p) => p.name)).toEqual(['Vandalism Deactivation']);
    expect(BILLABLE_PLANS.map((p) => p.path)).toEqual([
      'basic-plan',
      'sim-card',
      'maintenance',
      'support-plan',
      'vandalism-deactivation',
      'ble-tracking',
    ]);
  });

  it("reads the spec's 'support plan' and any case as the same product; unknown paths are undefined", () => {
    expect(planOf('support plan')?.path).toBe('support-plan');
    expect(planOf(' Basic-Plan ')?.path).toBe('basic-plan');
    expect(planOf('gold-plan')).toBeUndefined();
  });

  it('prices a bill: per device, flat for 8x7 support, in exact cents; TBA when unknown', () => {
    expect(billTotalUsd(planOf('maintenance')!, 3)).toBe(22.5);
    expect(billTotalUsd(planOf('basic-plan')!, 12)).toBe(204);
    expect(billTotalUsd(planOf('support-plan')!, 400)).toBe(1980);
    expect(() => billTotalUsd(planOf('geolocation')!, 1)).toThrow();
    expect(planPriceText(planOf('maintenance')!)).toBe('$7.50 / device / month');
    expect(planPriceText(planOf('support-plan')!)).toBe('$1,980.00 / month');
    expect(planPriceText(planOf('geo-blocking')!)).toBe('TBA');
    expect(
      checkoutTotalUsd([
        { product_name: 'basic-plan', deviceCount: 2 },
        { product_name: 'support-plan', deviceCount: 9 },
        { product_name: 'sim-card', deviceCount: 0 },
      ]),
    ).toBe(2014);
  });
});

describe('the overdue rule (15 days past the due date)', () => {
  it('deactivates on day 15, not on day 14, only for a bill still open', () => {
    expect(daysPastDue('2026-11-01', '2026-11-15')).toBe(14);
    expect(deactivationDue({ status: 'OVERDUE', dueDate: '2026-11-01' }, '2026-11-15')).toBe(false);
    expect(deactivationDue({ status: 'OVERDUE', dueDate: '2026-11-01' }, '2026-11-16')).toBe(true);
    expect(deactivationDue({ status: 'PENDING', dueDate: '2026-11-01' }, '2026-12-30')).toBe(true);
    expect(deactivationDue({ status: 'ACTIVE', dueDate: '2026-11-01' }, '2026-12-30')).toBe(false);
    expect(deactivationDue({ status: 'PENDING', dueDate: null }, '2026-12-30')).toBe(false);
    expect(deactivationDay('2026-02-20')).toBe('2026-03-07');
  });

  it('states the rule as one bound on the due date, the inverse of the deactivation day', () => {
    expect(lastDeactivatingDueDate('2026-11-16')).toBe('2026-11-01');
    expect(lastDeactivatingDueDate('2026-03-01')).toBe('2026-02-14');
    // Whatever the due date (month ends, leap day), the bill deactivates on its deactivation day, not the day before.
    for (const due of ['2026-01-31', '2028-02-29', '2026-12-20', '2026-11-01']) {
      const day = deactivationDay(due);
      expect(lastDeactivatingDueDate(day)).toBe(due);
      expect(daysPastDue(due, day)).toBe(15);
      expect(deactivationDue({ status: 'OVERDUE', dueDate: due }, day)).toBe(true);
      const before = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      expect(deactivationDue({ status: 'OVERDUE', dueDate: due }, before)).toBe(false);
    }
  });
});

describe('billing payloads', () => {
  const good = {
    bill_uid: 'web-1',
    product_name: 'basic-plan',
    price_usd: 17,
    name: 'Basic Plan (Contract)',
    device_serial_list: ['SP260001'],
    payment_type: 'SUBSCRIPTION',
  };

  it('accepts a checkout at the catalogue price, with note and payment_type defaults', () => {
    const { payment_type: _, ...rest } = good;
    expect(createBillSchema.parse(rest)).toMatchObject({ note: '', payment_type: 'SUBSCRIPTION' });
  });

  it('answers field messages: another price, unknown or TBA product, no devices, too many, other payment_type', () => {
    const errors = (input: unknown) => {
      const r = createBillSchema.safeParse(input);
      return r.success ? {} : fieldErrors(r.error);
    };
    expect(errors({ ...good, price_usd: 1 })).toEqual({
      price_usd: ['The price of Basic Plan (Contract) is $17.00 per device per month.'],
    });
    expect(errors({ ...good, product_name: 'gold' }).product_name).toEqual(['Unknown product: gold.']);
    // The name is the catalogue's for the product (case and blanks aside): another one is refused, never stored.
    expect(errors({ ...good, name: 'Gold Plan' })).toEqual({ name: ['The name of basic-plan is Basic Plan (Contract).'] });
    expect(errors({ ...good, product_name: 'sim-card', price_usd: 5 })).toEqual({ name: ['The name of sim-card is Sim Card.'] });
    expect(errors({ ...good, name: ' basic  plan (contract) ' })).toEqual({});
    expect(errors({ ...good, product_name: 'geolocation' }).product_name).toEqual([
      'Geolocation has no price yet (TBA) and cannot be billed.',
    ]);
    expect(errors({ ...good, device_serial_list: [] }).device_serial_list).toEqual(['Choose at least one device.']);
    expect(errors({ ...good, device_serial_list: ['A', 'A'] }).device_serial_list).toEqual(['A device is listed twice.']);
    const many = Array.from({ length: 501 }, (_, i) => `S${i}`);
    expect(errors({ ...good, product_name: 'maintenance', price_usd: 7.5, device_serial_list: many }).device_serial_list).toEqual(
      ['Maintenance covers at most 500 devices per bill.'],
    );
    expect(errors({ ...good, payment_type: 'ONE_OFF' }).payment_type).toEqual(['payment_type must be SUBSCRIPTION.']);
    expect(Object.keys(errors({}))).toEqual(
      expect.arrayContaining(['bill_uid', 'product_name', 'price_usd', 'name', 'device_serial_list']),
    );
    expect(unsubscriptionListSchema.safeParse({ product_name_list: [] }).success).toBe(false);
    expect(unsubscriptionListSchema.parse({ product_name_list: ['support plan'] }).product_name_list).toEqual(['support plan']);
  });

  it('describes a bill with its total and its deactivation day', () => {
    const bill = billSchema.parse({
      id: 1,
      bill_uid: 'b',
      product_name: 'maintenance',
      name: 'Maintenance',
      price_usd: 7.5,
      pricing: 'per-device',
      total_usd: 15,
      device_count: 2,
      device_serial_list: ['A', 'B'],
      note: '',
      payment_type: 'SUBSCRIPTION',
      status: 'PENDING',
      due_date: '2026-12-01',
      deactivation_date: '2026-12-16',
      created_at: '2026-11-17T00:00:00.000Z',
      paid_at: null,
      provider: 'offline',
      payment_reference: null,
      payer: { id: 1, email: 'a@b.c', name: 'A', company: 'C' },
    });
    expect(bill.total_usd).toBe(15);
  });
});
