import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { Router } from 'express';
import { deviceLabelsQuerySchema } from '@fleet/shared';
import { deviceScope } from '../access/scope.ts';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { brands, deviceGroups, devices } from '../db/schema.ts';
import { ApiError, parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { labelsPdf } from './labels-pdf.ts';

/**
 * GET /api/v1/deviceLabels?serials=a,b | ?site=<id> | ?brand=<id>: printable QR labels (a PDF), one per
 * placed device in the caller's scope, in site then number order. Every role may print the labels of the
 * devices it sees (the maintenance credential too); a named serial it does not see is a 400 naming it.
 * One small query and a render: no service layer of its own.
 */
export function labelsRoutes(ctx: AppContext): Routes {
  const router = Router();
  router.get('/deviceLabels', async (req, res) => {
    const q = parse(deviceLabelsQuerySchema, req.query);
    const rows = await ctx.db
      .select({
        serial: devices.serial,
        label: devices.label,
        site: deviceGroups.name,
        siteId: deviceGroups.id,
        brand: brands.name,
        number: devices.number,
      })
      .from(devices)
      .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
      .leftJoin(brands, eq(brands.id, devices.brandId))
      .where(
        and(
          isNotNull(devices.groupId),
          deviceScope(viewerOf(req)),
          q.serials ? inArray(devices.serial, q.serials) : undefined,
          q.site !== undefined ? eq(devices.groupId, q.site) : undefined,
          q.brand !== undefined ? eq(devices.brandId, q.brand) : undefined,
        ),
      )
      .orderBy(deviceGroups.name, devices.number, devices.serial);
    if (q.serials) {
      const missing = q.serials.filter((s) => !rows.some((r) => r.serial === s));
      if (missing.length) throw ApiError.field('serials', `No device with serial ${missing.join(', ')}.`);
    }
    if (!rows.length) throw ApiError.notFound(q.site !== undefined ? 'No device at this site.' : 'No device of this brand.');
    const what =
      q.serials?.length === 1
        ? q.serials[0]!
        : q.site !== undefined
          ? rows[0]!.site
          : q.brand !== undefined
            ? (rows[0]!.brand ?? 'brand')
            : 'devices';
    const pdf = await labelsPdf(rows, ctx.config.publicUrl, `Labels ${what}`);
    const name = `labels-${what.replace(/[^A-Za-z0-9_-]+/g, '-')}.pdf`;
    // inline: the browser's own viewer opens it (and prints it); a download link sets its own name.
    res.type('application/pdf').set('Content-Disposition', `inline; filename="${name}"`).send(pdf);
  });
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/deviceLabels',
      tag: 'Devices',
      summary: 'Printable QR labels of devices (PDF): by serials, a site or a brand',
      description:
        'One of serials (comma-separated, at most 500), site (a site id) or brand (a brand id). Each label holds a QR code of `<PUBLIC_URL>/maintenance?device=<serial>` (a phone camera opens the field app at that device) with the serial printed under it. Every role, within its device scope; a named serial outside it answers 400 naming it.',
      query: deviceLabelsQuerySchema,
      responses: { 200: { description: 'application/pdf' } },
    },
  ];
  return { router, docs };
}
