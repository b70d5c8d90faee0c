import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createProxy } from "../../proxy/app.ts";
import { createMemoryLogger } from "../../server/http/logger.ts";
import { JSON_BODY_LIMIT } from "../../common/http/body-limits.ts";
import { serveStudents } from "../serve/student-listener.ts";
import { closeAfterEarlyAnswers } from "./close-after-early-answers.ts";
import { closeServer } from "./close-server.ts";

const PUBLIC_ORIGIN = "http://localhost:4321";
/** What a server may read past a refused body's limit before it closes: Node reads ahead. */
const READ_AHEAD = 1024 * 1024;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(closeServer));
});

/** Once `server` listens (on an ephemeral port): its port, and its side of every connection. */
async function listening(server: Server) {
  servers.push(server);
  const sockets: Socket[] = [];
  server.on("connection", (socket) => sockets.push(socket));
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  return { port: (server.address() as AddressInfo).port, sockets };
}

/**
 * A client that streams a chunked body without end, as fast as the server takes it, until the
 * server closes the connection or `giveUpMs` passes. What came back, and whether it was closed.
 */
function streamWithoutEnd(port: number, path: string, giveUpMs = 3_000) {
  return new Promise<{ answer: string; closedByServer: boolean }>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (text: string) => (answer += text));
    // The server closing while we write is the outcome looked for, not a failure.
    socket.on("error", () => {});
    const chunk = Buffer.concat([
      Buffer.from("4000\r\n"),
      Buffer.alloc(0x4000, 0x20),
      Buffer.from("\r\n"),
    ]);
    const pump = () => {
      while (!socket.destroyed && socket.write(chunk));
    };
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve({ answer, closedByServer: false });
    }, giveUpMs);
    socket.once("close", () => {
      clearTimeout(giveUp);
      resolve({ answer, closedByServer: true });
    });
    socket.on("drain", pump);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: localhost:4321\r\nOrigin: ${PUBLIC_ORIGIN}\r\n` +
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    pump();
  });
}

/** Sends `requests` (raw HTTP/1.1) one after another on one connection, each once the answer before it began. */
function onOneConnection(port: number, requests: string[]) {
  return new Promise<{ statuses: string[]; firstConnection: string | undefined }>(
    (resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      let answers = "";
      socket.setEncoding("latin1");
      socket.on("error", reject);
      socket.on("data", (text: string) => {
        answers += text;
        const statuses = answers.match(/^HTTP\/1\.1 \d{3}[^\r]*/gm) ?? [];
        if (statuses.length < requests.length) return socket.write(requests[statuses.length]!);
        socket.end();
        resolve({ statuses, firstConnection: /^connection: (.*)\r$/im.exec(answers)?.[1] });
      });
      socket.write(requests[0]!);
    },
  );
}

describe("a Node listener that answers posts without reading them (as the page server may)", () => {
  const answerUnread = () =>
    createServer((_request, response) => response.writeHead(302, { location: "/login" }).end());

  it("closes the connection instead of reading a refused upload without end", async () => {
    const { port, sockets } = await listening(
      closeAfterEarlyAnswers(answerUnread()).listen(0, "127.0.0.1"),
    );
    const { answer, closedByServer } = await streamWithoutEnd(port, "/library");
    expect(answer).toMatch(/^HTTP\/1\.1 302 /);
    expect(closedByServer).toBe(true);
    expect(sockets[0]!.bytesRead).toBeLessThan(READ_AHEAD);
    expect(answer).toMatch(/^connection: close\r$/im);
  });

  it("keeps a connection whose small body had all arrived, read or not", async () => {
    // Answered a moment later, as the portal's asynchronous handlers do: the body is in by then.
    const later = createServer((_request, response) =>
      setImmediate(() => response.writeHead(204).end()),
    );
    const { port, sockets } = await listening(closeAfterEarlyAnswers(later).listen(0, "127.0.0.1"));
    const post =
      "POST /complaint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
    const { statuses, firstConnection } = await onOneConnection(port, [
      post,
      "GET /login HTTP/1.1\r\nHost: x\r\n\r\n",
    ]);
    expect(statuses).toEqual(["HTTP/1.1 204 No Content", "HTTP/1.1 204 No Content"]);
    expect(firstConnection).toBe("keep-alive");
    expect(sockets).toHaveLength(1);
  });
});

describe("the listener students reach, refusing a chunked upload over the limit", () => {
  it("answers 413, closes the connection, and reads little past the limit", async () => {
    const proxy = createProxy({
      publicOrigin: PUBLIC_ORIGIN,
      apiUrl: "http://api.internal",
      pagesUrl: "http://pages.internal",
      fetch: async () => new Response("not reached", { status: 500 }),
    });
    const env = {
      PORT: 0,
      PUBLIC_ORIGIN,
      MAX_REQUESTS_IN_FLIGHT: 8,
      MAX_REQUESTS_WAITING: 8,
      MAX_REQUEST_WAIT_MS: 1_000,
    };
    const { port, sockets } = await listening(
      serveStudents(proxy.fetch, { env, logger: createMemoryLogger() }),
    );
    const { answer, closedByServer } = await streamWithoutEnd(port, "/api/complaint/create");
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(closedByServer).toBe(true);
    expect(sockets[0]!.bytesRead).toBeLessThan(JSON_BODY_LIMIT + READ_AHEAD);
    expect(answer).toMatch(/^connection: close\r$/im);
  });
});
