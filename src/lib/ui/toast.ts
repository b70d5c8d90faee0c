/**
 * A small toast for pages that ship no React (sign-in): the same place and timing as the
 * islands' sonner toasts (top-right, 2 seconds), announced to screen readers.
 */
export function showToast(message: string, tone: "success" | "error" | "warning" | "info" = "info", durationMs = 2000) {
  let region = document.getElementById("toasts");
  if (!region) {
    region = document.createElement("div");
    region.id = "toasts";
    region.className = "toasts";
    region.setAttribute("aria-live", "polite");
    document.body.append(region);
  }
  const toast = document.createElement("div");
  toast.className = `toast toast-${tone}`;
  toast.setAttribute("role", tone === "error" ? "alert" : "status");
  toast.textContent = message;
  region.append(toast);
  setTimeout(() => toast.remove(), durationMs);
}
