/**
 * Runs one autocannon measurement in this process and prints its JSON summary: the capacity
 * bench starts it as a child so the load it generates is not counted against the portal, as a
 * load generator on another machine would not be. Usage: node autocannon-run.ts <config.json>
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export type AutocannonRun = {
  url: string;
  connections: number;
  seconds: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Bodies sent in turn (a different account's sign-in each time); none for a GET. */
  bodies?: string[];
};

const run = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as AutocannonRun;
let next = 0;
const result = await autocannon({
  url: run.url,
  connections: run.connections,
  duration: run.seconds,
  method: run.method ?? "GET",
  headers: run.headers,
  requests: run.bodies?.length
    ? [
        {
          setupRequest: (request) => ({
            ...request,
            body: run.bodies![next++ % run.bodies!.length],
          }),
        },
      ]
    : undefined,
});
process.stdout.write(JSON.stringify(result));
