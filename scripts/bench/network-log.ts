import { gzipSync } from "node:zlib";
import type { CDPSession } from "@playwright/test";

/** How downloaded bytes are grouped in the report. */
export type ResourceKind = "html" | "css" | "js" | "images" | "other";

/** Every kind, in report order. */
export const RESOURCE_KINDS: readonly ResourceKind[] = ["html", "css", "js", "images", "other"];

/** One HTTP exchange made during a page visit (a redirect hop counts as one). */
export interface ResourceRecord {
  url: string;
  kind: ResourceKind;
  /** HTTP status; 0 when the request failed. */
  status: number;
  /** Decoded body bytes. */
  raw: number;
  /** Body bytes on the wire when the server compressed it, else the body gzipped at level 6. */
  gzip: number;
  /** The response's Content-Encoding, "" when sent uncompressed. */
  encoding: string;
  /** Chromium's verdict: CSS or a classic script in the head that holds the first paint. */
  renderBlocking: boolean;
}

// The few CDP fields read here (playwright-core does not export its Protocol types).
interface CdpResponse {
  status: number;
  mimeType: string;
  headers: Record<string, string>;
  /** Bytes received so far: at `responseReceived`, the status line and headers. */
  encodedDataLength: number;
}
interface RequestEvent {
  requestId: string;
  request: { url: string };
  type?: string;
  redirectResponse?: CdpResponse;
  renderBlockingBehavior?: string;
}

interface Pending {
  url: string;
  type?: string;
  renderBlocking: boolean;
  response?: CdpResponse;
}

const KIND_BY_TYPE: Record<string, ResourceKind> = {
  Document: "html",
  Stylesheet: "css",
  Script: "js",
  Image: "images",
};

function kindOf(type: string | undefined, mimeType = ""): ResourceKind {
  const byType = type && KIND_BY_TYPE[type];
  if (byType) return byType;
  if (mimeType.includes("html")) return "html";
  if (mimeType.includes("css")) return "css";
  if (mimeType.includes("javascript")) return "js";
  if (mimeType.startsWith("image/")) return "images";
  return "other";
}

function header(headers: Record<string, string>, name: string): string {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? String(headers[key]).trim().toLowerCase() : "";
}

/**
 * Records every request a page makes through a CDP session, with body sizes.
 * Call `start()` before navigating and `records()` once the network is quiet.
 */
export class NetworkLog {
  private readonly cdp: CDPSession;
  private readonly pending = new Map<string, Pending>();
  private readonly done: Promise<ResourceRecord>[] = [];
  private lastActivity = Date.now();

  constructor(cdp: CDPSession) {
    this.cdp = cdp;
  }

  /** Subscribes to the Network domain's events. */
  async start(): Promise<void> {
    this.cdp.on("Network.requestWillBeSent", (event) => this.onRequest(event));
    this.cdp.on("Network.responseReceived", (event) => {
      const entry = this.pending.get(event.requestId);
      if (entry) Object.assign(entry, { response: event.response, type: event.type });
    });
    this.cdp.on("Network.loadingFinished", (event) => this.onFinished(event));
    this.cdp.on("Network.loadingFailed", (event) => this.onFailed(event.requestId));
    // Bodies must stay retrievable until `records()` asks for them.
    await this.cdp.send("Network.enable", {
      maxTotalBufferSize: 64e6,
      maxResourceBufferSize: 32e6,
    });
  }

  /** Resolves once no request has been in flight for `quietMs`, or after `maxMs`. */
  async waitForQuiet(quietMs: number, maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline) {
      if (this.pending.size === 0 && Date.now() - this.lastActivity >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Everything recorded so far, in the order requests completed. */
  records(): Promise<ResourceRecord[]> {
    return Promise.all(this.done);
  }

  private onRequest(event: RequestEvent): void {
    const url = event.request.url;
    if (!url.startsWith("http")) return;
    this.lastActivity = Date.now();
    const previous = this.pending.get(event.requestId);
    if (previous && event.redirectResponse) {
      this.done.push(Promise.resolve(this.hop(previous, event.redirectResponse.status)));
    }
    this.pending.set(event.requestId, {
      url,
      type: event.type,
      renderBlocking: event.renderBlockingBehavior === "Blocking",
    });
  }

  private onFinished(event: { requestId: string; encodedDataLength: number }): void {
    const entry = this.pending.get(event.requestId);
    if (!entry) return;
    this.pending.delete(event.requestId);
    this.lastActivity = Date.now();
    this.done.push(this.measureBody(event.requestId, entry, event.encodedDataLength));
  }

  private onFailed(requestId: string): void {
    const entry = this.pending.get(requestId);
    if (!entry) return;
    this.pending.delete(requestId);
    this.lastActivity = Date.now();
    this.done.push(Promise.resolve(this.hop(entry, 0)));
  }

  private hop(entry: Pending, status: number): ResourceRecord {
    const kind = kindOf(entry.type);
    return { url: entry.url, kind, status, raw: 0, gzip: 0, encoding: "", renderBlocking: false };
  }

  private async measureBody(
    id: string,
    entry: Pending,
    wireBytes: number,
  ): Promise<ResourceRecord> {
    const response = entry.response;
    const encoding = response ? header(response.headers, "content-encoding") : "";
    let body = Buffer.alloc(0);
    try {
      const { body: text, base64Encoded } = await this.cdp.send("Network.getResponseBody", {
        requestId: id,
      });
      body = Buffer.from(text, base64Encoded ? "base64" : "utf8");
    } catch {
      // No body (204, 304, HEAD) or already evicted: count it as empty.
    }
    // At responseReceived, encodedDataLength counts the header bytes received so far.
    const bodyOnWire = Math.max(0, wireBytes - (response?.encodedDataLength ?? 0));
    const compressed = encoding !== "" && encoding !== "identity";
    return {
      url: entry.url,
      kind: kindOf(entry.type, response?.mimeType),
      status: response?.status ?? 0,
      raw: body.length,
      gzip: compressed ? bodyOnWire : gzipSync(body, { level: 6 }).length,
      encoding: compressed ? encoding : "",
      renderBlocking: entry.renderBlocking,
    };
  }
}
