import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Segmented } from '../segmented/segmented';
import { DataTable, type DataColumn } from './data-table';

type Row = { id: number; name: string; count: number };
const columns: DataColumn<Row>[] = [
  { key: 'name', header: 'Name', rowHeader: true, cell: (r) => r.name },
  { key: 'count', header: 'Count', align: 'end', cell: (r) => r.count },
];

describe('DataTable', () => {
  it('shows the empty state instead of a table with no rows', () => {
    const html = renderToStaticMarkup(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} empty="Nothing yet." />);
    expect(html).not.toContain('<table');
    expect(html).toContain('Nothing yet.');
  });

  it('names each row by its row-header column and passes the row attributes', () => {
    const html = renderToStaticMarkup(
      <DataTable
        columns={columns}
        rows={[{ id: 1, name: 'Basic', count: 3 }]}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ 'data-plan': r.name })}
        empty="-"
      />,
    );
    expect(html).toContain('<th scope="col"');
    expect(html).toMatch(/<tr data-plan="Basic"><th scope="row"[^>]*>Basic<\/th><td[^>]*>3<\/td><\/tr>/);
  });
});

describe('Segmented', () => {
  it('presses the chosen option and keeps an unavailable one focusable with its reason', () => {
    const html = renderToStaticMarkup(
      <Segmented
        label="Pump"
        value={1}
        onChange={() => undefined}
        options={[
          { value: 1, label: 'Left' },
          { value: 2, label: 'Right', disabledReason: 'One pump' },
        ]}
      />,
    );
    expect(html).toContain('role="group" aria-label="Pump"');
    expect(html).toMatch(/aria-pressed="true"[^>]*>Left</);
    expect(html).toMatch(/aria-pressed="false" aria-disabled="true" title="One pump"[^>]*>Right</);
    expect(html).not.toContain('disabled=""');
  });
});
