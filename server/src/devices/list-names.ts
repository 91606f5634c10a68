/**
 * A stored list answer with its brand and batch names put in: the same text as the database function
 * device_list_named (server/src/db/functions/device_list_named.sql), done in this process for every list read
 * (the whole list, its pages, the cards' poll; the single answer keeps the SQL function, as it goes on in jsonb).
 * At 100,000 devices PostgreSQL's three `replace` calls a row were more than half the
 * CPU of reading the list (about 470 of 820 ms); here the three keys are found with indexOf in the first few
 * hundred characters and the string is put together once (about a tenth of that on the server's thread).
 * Both are held equal by list-names.test.ts (names with quotes, backslashes, control characters and
 * non-ASCII text, null names) and by the whole list's test against the SQL function
 * (tests/integration/device-list-stream.test.ts).
 *
 * Each key can only match itself: inside a JSON string every '"' is escaped, so '"brand_name":null' cannot
 * occur within a label or an address. The stored answer holds the three keys in this order, each null
 * (device_list_json); where one is missing, the text is left as it is there, as `replace` would.
 */
const KEYS = ['"brand_name":', '"batchNumber":', '"batch2Number":'] as const;

const [BRAND_NULL, BATCH_NULL, BATCH2_NULL] = KEYS.map((key) => `${key}null`) as [string, string, string];

/** JSON text of a name, as PostgreSQL's to_json(text)::text writes it (JSON.stringify escapes the same way). */
const jsonName = (name: string | null) => (name === null ? 'null' : JSON.stringify(name));

export function withListNames(json: string, brandName: string | null, batchNo: string | null, batch2No: string | null): string {
  // The stored answer's order: each key searched from the one before (about 450 characters read in all).
  const a = json.indexOf(BRAND_NULL);
  const b = a < 0 ? -1 : json.indexOf(BATCH_NULL, a + BRAND_NULL.length);
  const c = b < 0 ? -1 : json.indexOf(BATCH2_NULL, b + BATCH_NULL.length);
  if (c >= 0) {
    return (
      json.slice(0, a + KEYS[0].length) +
      jsonName(brandName) +
      json.slice(a + BRAND_NULL.length, b + KEYS[1].length) +
      jsonName(batchNo) +
      json.slice(b + BATCH_NULL.length, c + KEYS[2].length) +
      jsonName(batch2No) +
      json.slice(c + BATCH2_NULL.length)
    );
  }
  return inAnyOrder(json, [brandName, batchNo, batch2No]);
}

/** Any other text (a key missing, or the keys in another order): each key where it is, as `replace` would. */
function inAnyOrder(json: string, names: (string | null)[]): string {
  const found: { at: number; key: string; name: string | null }[] = [];
  for (let k = 0; k < KEYS.length; k++) {
    const at = json.indexOf(`${KEYS[k]}null`);
    if (at >= 0) found.push({ at, key: KEYS[k]!, name: names[k]! });
  }
  if (!found.length) return json;
  found.sort((x, y) => x.at - y.at);
  let out = '';
  let from = 0;
  for (const { at, key, name } of found) {
    out += json.slice(from, at + key.length) + jsonName(name);
    from = at + key.length + 4;
  }
  return out + json.slice(from);
}
