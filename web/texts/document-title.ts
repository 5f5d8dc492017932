// The portal's name and the browser tab's text, apart from the frame's other texts: the login island names its step
// in the tab without carrying them.
export const brand = "Payments Portal";

/** The browser tab's text: the page's own title, then the portal's name. */
export const documentTitle = (title: string): string => `${title} · ${brand}`;
