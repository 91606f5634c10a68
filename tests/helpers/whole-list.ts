import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../server/src/db/client.ts';

/**
 * The whole device list (GET /api/v1/device) as the one query before issue 46 made it: every placed device
 * in scope, sorted, named in PostgreSQL, joined. The reference the streamed and kept lists are held to.
 */
export async function wholeListOneQuery(database: Database, scope: SQL | undefined): Promise<string> {
  const res = (await database.db.execute(sql`
    select device_list_named(coalesce(a.list_json, device_list_json(devices)), b.name, x1.batch_no, x2.batch_no) as json
    from devices
    left join device_list_answers a on a.device_id = devices.id
    left join brands b on b.id = devices.brand_id
    left join batches x1 on x1.id = devices.batch_id
    left join batches x2 on x2.id = devices.batch2_id
    where devices.group_id is not null and ${scope ?? sql`true`}
    order by devices.group_id, devices.number, devices.serial`)) as unknown as { rows: { json: string }[] };
  return `[${res.rows.map((r) => r.json).join(',')}]`;
}
