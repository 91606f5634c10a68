// The map page is loaded with a dynamic import after sign-in (see app/App.tsx): import it lazily.
export {};
