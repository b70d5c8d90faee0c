/** A waiting page as the contract of issue 34 has the portal write it. */
export function waitingPageHtml(options: {
  place: number | string;
  waitSeconds: number | null;
  refresh: string;
}) {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta http-equiv="refresh" content="${options.refresh}">
<title>You are in line</title>
<main id="waiting-line" data-place="${options.place}" data-wait-seconds="${options.waitSeconds ?? ""}" style="font-family: system-ui">
<h1>You are in line</h1>
</main>
</html>
`;
}
