/** BATCH LIST tab of the main dashboard (spec section 2 'Batch List'): built by the brands-and-batches work. */
export function BatchListTab() {
  return <p>The batch list is not built yet.</p>;
}
