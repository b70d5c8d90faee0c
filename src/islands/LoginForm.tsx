import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { apiRequest, ApiFailure } from "../lib/api/browser-api.ts";
import { rememberStudent } from "../lib/stores/student.ts";
import { StudentRecord } from "../lib/students/student-record.ts";
import { PortalToaster } from "./PortalToaster.tsx";

const LoginAnswer = z.object({ data: z.object({ tokens: z.object({ student: StudentRecord }) }) });

type Props = { next: string };

/**
 * The sign-in form. Before hydration it posts to /login like any HTML form; once hydrated it
 * signs in with one JSON call so the student gets the spec's button states and toasts.
 */
export default function LoginForm({ next }: Props) {
  const [state, setState] = useState<"idle" | "loading" | "failed">("idle");

  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setState("loading");
    try {
      const answer = await apiRequest("/student/uniben/login", LoginAnswer, {
        method: "POST",
        json: { username: form.get("username"), password: form.get("password") },
      });
      rememberStudent(answer.data.tokens.student);
      toast.success("Login successful");
      window.location.assign(next);
    } catch (error) {
      setState("failed");
      toast.error(error instanceof ApiFailure ? error.message : "Sign-in failed. Please try again.");
    }
  }

  return (
    <form method="post" action="/login" onSubmit={signIn} className="login-form">
      <input type="hidden" name="next" value={next} />
      <div className="field">
        <label htmlFor="username">Username</label>
        <input id="username" name="username" type="text" inputMode="tel" autoComplete="username" placeholder="Enter phone number" required />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <div className="login-options">
        <label className="switch">
          <input type="checkbox" role="switch" name="remember" /> Remember me
        </label>
        <a href="/reset-password">Forgot password?</a>
      </div>
      <button type="submit" className="login-submit" disabled={state === "loading"} aria-live="polite">
        {state === "loading" ? <span className="spinner" role="status" aria-label="Signing in" /> : state === "failed" ? "Failed, try again" : "Sign in"}
      </button>
      <PortalToaster />
    </form>
  );
}
