/**
 * What one sign-in's password check costs, old scheme against new (decision 110):
 *   npx node scripts/password-hash-cost.ts [--argon2-concurrent 200] [--scrypt-concurrent 20]
 * Prints time per check one at a time, then how many checks per second the machine completes when
 * many sign-ins arrive at once (the async APIs share libuv's thread pool, 4 threads by default),
 * the CPU time each check took during that burst (which other work on the machine barely moves)
 * and the process's peak resident memory after each scheme's burst.
 */
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { hashPassword, OWASP_ARGON2_COST, verifyPassword } from "../server/auth/password.ts";
import { legacyScryptHash } from "../server/testing/legacy-password-hash.test-kit.ts";

const { values } = parseArgs({
  options: {
    "argon2-concurrent": { type: "string", default: "200" },
    "scrypt-concurrent": { type: "string", default: "20" },
    runs: { type: "string", default: "10" },
  },
});
const runs = Number(values.runs);
const PASSWORD = "registration-week 2025";

const median = (numbers: number[]) =>
  numbers.toSorted((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const peakMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function measure(name: string, stored: string, concurrent: number) {
  await verifyPassword(PASSWORD, stored); // warm-up
  const one: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    if (!(await verifyPassword(PASSWORD, stored)))
      throw new Error(`${name}: the password did not verify`);
    one.push(performance.now() - started);
  }
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const results = await Promise.all(
    Array.from({ length: concurrent }, () => verifyPassword(PASSWORD, stored)),
  );
  const wallMs = performance.now() - started;
  // CPU time, unlike wall time, does not grow when other work shares the cores.
  const cpu = process.cpuUsage(cpuBefore);
  if (results.some((ok) => !ok)) throw new Error(`${name}: a concurrent check failed`);
  return {
    name,
    perCheckMs: median(one).toFixed(1),
    concurrent,
    wallMs: wallMs.toFixed(0),
    perSecond: ((concurrent / wallMs) * 1000).toFixed(1),
    cpuPerCheckMs: ((cpu.user + cpu.system) / 1000 / concurrent).toFixed(1),
    peakRssMiB: peakMiB(),
  };
}

const { memoryKiB, passes, parallelism } = OWASP_ARGON2_COST;
const loadBefore = loadavg();
const baselineRssMiB = peakMiB();
const rows = [
  // argon2id first: the peak memory figure only ever grows, so the cheaper scheme goes before.
  await measure(
    `argon2id m=${memoryKiB},t=${passes},p=${parallelism}`,
    await hashPassword(PASSWORD),
    Number(values["argon2-concurrent"]),
  ),
  await measure(
    "scrypt N=2^17,r=8,p=1",
    legacyScryptHash(PASSWORD, { N: 2 ** 17, r: 8, p: 1 }),
    Number(values["scrypt-concurrent"]),
  ),
];

console.log(
  `Node ${process.version}, ${availableParallelism()} cores, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? "4 (default)"}, ` +
    `load average before: ${loadBefore.map((n) => n.toFixed(2)).join(" ")}, RSS before hashing: ${baselineRssMiB} MiB`,
);
const cores = availableParallelism();
console.log(
  `| scheme | one check (median of ${runs}) | concurrent checks | wall time | checks/s | ` +
    `CPU per check | checks/s ${cores} idle cores could do | peak RSS |`,
);
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) {
  const idleCapacity = ((1000 / Number(row.cpuPerCheckMs)) * cores).toFixed(0);
  console.log(
    `| ${row.name} | ${row.perCheckMs} ms | ${row.concurrent} | ${row.wallMs} ms | ${row.perSecond} | ` +
      `${row.cpuPerCheckMs} ms | ${idleCapacity} | ${row.peakRssMiB} MiB |`,
  );
}
