/**
 * The cheap Android phones students use (issue 29), as Playwright options: a mobile viewport as big
 * as the screen, touch, two device pixels per CSS pixel. The phone projects run at both sizes; the
 * phone journeys of each area, which run once in the desktop project, take the smaller one.
 */
function phone(size: { width: number; height: number }) {
  return { viewport: size, screen: size, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
}

export const PHONE_360 = phone({ width: 360, height: 740 });
export const PHONE_390 = phone({ width: 390, height: 844 });
