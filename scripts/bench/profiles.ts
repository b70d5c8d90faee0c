/** A network condition applied through CDP `Network.emulateNetworkConditions`. */
export interface NetworkProfile {
  name: string;
  /** Added to every request, from sending it to receiving response headers (ms). */
  latencyMs: number;
  /** Bytes per second. */
  downloadBps: number;
  /** Bytes per second. */
  uploadBps: number;
}

/** DevTools' presets, the conditions the budgets in docs/architecture.md are stated for. */
export const NETWORK_PROFILES: readonly NetworkProfile[] = [
  { name: "Slow 4G", latencyMs: 562.5, downloadBps: 180_000, uploadBps: 84_375 },
  { name: "3G", latencyMs: 2000, downloadBps: 50_000, uploadBps: 50_000 },
];

/** CPU slowdown factor for `Emulation.setCPUThrottlingRate`. */
export const CPU_SLOWDOWN = 4;

/** A small Android phone, as a student would hold it. */
export const MOBILE_DEVICE = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
} as const;
