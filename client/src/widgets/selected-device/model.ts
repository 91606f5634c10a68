import { createEvent, createStore } from 'effector';

/**
 * The selected pin's card opens no other widget itself: it says what it wants and the page connects it
 * (pages/map/model.ts), and the page tells it when the device panel covers it.
 */
/** Out: Open Device Manager clicked for this serial. */
export const deviceManagerRequested = createEvent<string>();
/** In: the device panel opened (true) or closed (false): the card hides while the panel is open. */
export const panelShownChanged = createEvent<boolean>();
export const $panelShown = createStore(false).on(panelShownChanged, (_, shown) => shown);
