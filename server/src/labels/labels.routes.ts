import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { deviceLabelsQuerySchema, devicesApi } from '@fleet/shared';
import { deviceScope } from '../access/scope.ts';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { brands, deviceGroups, devices } from '../db/schema.ts';
import { ApiError, parse } from '../lib/errors.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { labelsPdf } from './labels-pdf.ts';

/**
 * GET /api/v1/deviceLabels?serials=a,b | ?site=<id> | ?brand=<id>: printable QR labels (a PDF), one per
 * placed device in the caller's scope, in site then number order. Every role may print the labels of the
 * devices it sees (the maintenance credential too); a named serial it does not see is a 400 naming it.
 * One small query and a render: no service layer of its own. Declared in shared/src/api/devices.ts.
 */
export function labelsRoutes(ctx: AppContext): Routes {
  const { router, docs, on } = endpointRoutes();
  on(devicesApi.labels, async (req, res) => {
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
  return { router, docs };
}
