import { availableParallelism } from "node:os";
import { hashPassword, verifyPassword } from "../../server/auth/password.ts";

export type PasswordCheckCeiling = {
  checks: number;
  cpuMsPerCheck: number;
  checksPerSecond: number;
};

/**
 * The most sign-ins a second these cores could give if they did nothing but check passwords at
 * the portal's cost: the sign-in row's baseline, as bare Node is the pages' (decision 138). The
 * hash is set by OWASP's cost and by the machine, not by the portal's code, and machines of the
 * same size differ by more than two to one in it. CPU time of this process, the hashing thread's
 * included, which other work on the machine barely moves.
 */
export async function measurePasswordCheckCeiling(checks = 60): Promise<PasswordCheckCeiling> {
  const password = "registration-week 2025";
  const stored = await hashPassword(password);
  await verifyPassword(password, stored); // warm-up: starts the hashing thread
  const before = process.cpuUsage();
  for (let check = 0; check < checks; check += 1) {
    if (!(await verifyPassword(password, stored)))
      throw new Error("The password did not verify against its own hash.");
  }
  const cpu = process.cpuUsage(before);
  const cpuMsPerCheck = (cpu.user + cpu.system) / 1000 / checks;
  return {
    checks,
    cpuMsPerCheck,
    checksPerSecond: (availableParallelism() * 1000) / cpuMsPerCheck,
  };
}
