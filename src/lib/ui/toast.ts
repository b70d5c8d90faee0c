import { TOAST_DURATION_MS, type ToastTone } from "./toast-duration.ts";

/**
 * A small toast for pages that ship no React (sign-in): the same place and timing as the
 * islands' sonner toasts (top-right; TOAST_DURATION_MS), announced to screen readers. An error
 * stays until dismissed and replaces the previous error, so retries do not pile them up.
 */
export function showToast(message: string, tone: ToastTone = "info") {
  const region = toastRegion();
  if (tone === "error")
    region.querySelectorAll(".toast-error").forEach((earlier) => earlier.remove());
  const duration = TOAST_DURATION_MS[tone];
  const lasts = Number.isFinite(duration);
  const toast = makeToast(message, tone, !lasts);
  if (lasts) setTimeout(() => toast.remove(), duration);
  region.append(toast);
}

/**
 * A toast for something still going on (a place in line): it stays until `removeStandingToast`
 * or the student dismisses it, and a newer one of the same name takes its place. The same words
 * again change nothing, so a screen reader is not told them again at every retry.
 */
export function showStandingToast(name: string, message: string, tone: ToastTone = "info") {
  const region = toastRegion();
  const earlier = standingToast(region, name);
  if (earlier?.querySelector("[role]")?.textContent === message) return;
  const toast = makeToast(message, tone, true);
  toast.dataset.standing = name;
  if (earlier) earlier.replaceWith(toast);
  else region.append(toast);
}

export function removeStandingToast(name: string) {
  const region = document.getElementById("toasts");
  if (region) standingToast(region, name)?.remove();
}

function standingToast(region: HTMLElement, name: string) {
  return [...region.querySelectorAll<HTMLElement>("[data-standing]")].find(
    (toast) => toast.dataset.standing === name,
  );
}

function toastRegion() {
  let region = document.getElementById("toasts");
  if (!region) {
    region = document.createElement("div");
    region.id = "toasts";
    region.className = "toasts";
    region.setAttribute("aria-live", "polite");
    document.body.append(region);
  }
  return region;
}

function makeToast(message: string, tone: ToastTone, dismissable: boolean) {
  const toast = document.createElement("div");
  toast.className = `toast toast-${tone}`;
  // The role is on the message alone, so screen readers announce it without the close button.
  const text = document.createElement("span");
  text.setAttribute("role", tone === "error" ? "alert" : "status");
  text.textContent = message;
  toast.append(text);
  if (dismissable) {
    const close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    close.addEventListener("click", () => toast.remove());
    toast.append(close);
  }
  return toast;
}
