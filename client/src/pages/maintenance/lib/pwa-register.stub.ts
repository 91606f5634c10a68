/**
 * The unit tests' stand-in for vite-plugin-pwa's `virtual:pwa-register` (made by the build's plugin, which
 * the tests do not run): registering does nothing, updating neither.
 */
export const registerSW = (_options?: unknown) => async (_reload?: boolean) => undefined;
