import express from 'express';
import { billingApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { billingRepository } from './billing.repository.ts';
import { billingService } from './billing.service.ts';
import { offlinePaymentProvider, type PaymentProvider } from './payment-provider.ts';

/** The path of the payment provider's webhook: outside /api/v1, since it carries a signature, not a token. */
export const WEBHOOK_PATH = billingApi.webhook.path;

/** The payment provider of this deployment: the offline one (the only one built), from configuration. */
export function paymentProviderOf(ctx: Pick<AppContext, 'config'>): PaymentProvider {
  const { billing } = ctx.config;
  return offlinePaymentProvider({
    webhookSecret: billing.webhookSecret,
    dueDays: billing.dueDays,
    toleranceSeconds: billing.webhookToleranceSeconds,
  });
}

/** The service as the routes and the overdue schedule build it. */
export function billingServiceOf(ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'sessions' | 'log'>) {
  return billingService({
    repo: billingRepository(ctx.db),
    provider: paymentProviderOf(ctx),
    now: ctx.now,
    endUserSessions: (userId) => ctx.sessions.endUserSessions(userId, 'deactivated'),
    log: ctx.log,
  });
}

/** The billing calls of spec section 7 (exact paths), mark-paid, and the provider's webhook. */
export function billingRoutes(ctx: AppContext): Routes {
  const service = billingServiceOf(ctx);
  const { router, docs, on } = endpointRoutes();

  on(billingApi.getUnsubscriptionList, async (req, res) => {
    res.json(await service.unsubscriptionList(viewerOf(req), req.body));
  });
  on(billingApi.getAllBill, async (req, res) => {
    res.json(await service.allBills(viewerOf(req)));
  });
  on(billingApi.createBill, async (req, res) => {
    const { bill, created } = await service.createBill(viewerOf(req), req.body);
    res.status(created ? 201 : 200).json(bill);
  });
  on(billingApi.markBillPaid, async (req, res) => {
    res.json(await service.markPaid(viewerOf(req), req.body));
  });

  // The signature is over the exact bytes sent: the body is read raw, before any JSON parser.
  const webhook = endpointRoutes(WEBHOOK_PATH);
  webhook.on(billingApi.webhook, express.raw({ type: () => true, limit: '64kb' }), async (req, res) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    res.json(await service.webhook({ rawBody, header: (name) => req.get(name) }));
  });
  return { router, docs: [...docs, ...webhook.docs], publicMounts: [{ path: WEBHOOK_PATH, router: webhook.router }] };
}
