import { createEvent } from 'effector';

/**
 * What the profile panel asks for; it drives no other widget itself: the page connects these to the map's
 * zoom and to User Management (pages/map/model.ts).
 */
export const zoomInRequested = createEvent();
export const zoomOutRequested = createEvent();
/** The profile image clicked by a role that may open User Management. */
export const userManagementRequested = createEvent();
