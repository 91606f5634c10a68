import { createEvent } from 'effector';

/**
 * What the profile panel asks for; it drives no other widget itself: the page connects these to the map's
 * zoom and to User Management (pages/map/model.ts).
 */
export const zoomInRequested = createEvent();
export const zoomOutRequested = createEvent();
/** The profile image clicked: User Management, or for a client its own Account Settings. */
export const userManagementRequested = createEvent();
