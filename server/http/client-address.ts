/** The client's address as the proxy in front reports it; the API is never exposed directly. */
export function clientAddress(request: Request) {
  const forwarded = request.headers.get("x-forwarded-for") ?? "";
  return forwarded.split(",")[0]?.trim() || "unknown";
}
