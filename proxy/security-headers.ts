import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { FALLBACK_POLICY } from "../common/security/content-security-policy.ts";

/**
 * Security headers on every answer. A header the upstream already set wins: the page server
 * writes each page's Content-Security-Policy with the hashes of the scripts it inlined, and the
 * password reset page sends `Referrer-Policy: no-referrer` because its address holds a token.
 * Answers without a policy get one that runs scripts from our own files only.
 */
export function securityHeaders(options: { https: boolean }): MiddlewareHandler {
  const standard = secureHeaders({
    overwrite: false,
    strictTransportSecurity: options.https ? "max-age=31536000; includeSubDomains" : false,
    referrerPolicy: "same-origin",
    // No page uses these; a script that got in cannot ask for them either.
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
      payment: [],
      usb: [],
      accelerometer: [],
      gyroscope: [],
      magnetometer: [],
    },
  });
  return async (c, next) => {
    await standard(c, next);
    if (!c.res.headers.has("content-security-policy")) {
      c.res.headers.set("content-security-policy", FALLBACK_POLICY);
    }
  };
}
