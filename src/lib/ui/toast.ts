import { TOAST_DURATION_MS, type ToastTone } from "./toast-duration.ts";

/**
 * A small toast for pages that ship no React (sign-in): the same place and timing as the
 * islands' sonner toasts (top-right; TOAST_DURATION_MS), announced to screen readers. An error
 * stays until dismissed and replaces the previous error, so retries do not pile them up.
 */
export function showToast(message: string, tone: ToastTone = "info") {
  let region = document.getElementById("toasts");
  if (!region) {
    region = document.createElement("div");
    region.id = "toasts";
    region.className = "toasts";
    region.setAttribute("aria-live", "polite");
    document.body.append(region);
  }
  if (tone === "error")
    region.querySelectorAll(".toast-error").forEach((earlier) => earlier.remove());
  const toast = document.createElement("div");
  toast.className = `toast toast-${tone}`;
  // The role is on the message alone, so screen readers announce it without the close button.
  const text = document.createElement("span");
  text.setAttribute("role", tone === "error" ? "alert" : "status");
  text.textContent = message;
  toast.append(text);
  const duration = TOAST_DURATION_MS[tone];
  if (Number.isFinite(duration)) {
    setTimeout(() => toast.remove(), duration);
  } else {
    const close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    close.addEventListener("click", () => toast.remove());
    toast.append(close);
  }
  region.append(toast);
}
