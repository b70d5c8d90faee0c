import { createProxy } from "./app.ts";

type Answer = (request: Request) => Response | Promise<Response>;

/**
 * Tests only: the proxy in front of a stand-in for both upstreams that records every request it
 * relays and answers with `answer` (by default an empty JSON object).
 */
export function recordingProxy(
  publicOrigin = "http://localhost:4321",
  answer: Answer = () => Response.json({}),
) {
  const sent: Request[] = [];
  const app = createProxy({
    publicOrigin,
    apiUrl: "http://api.internal",
    pagesUrl: "http://pages.internal",
    fetch: async (request) => {
      sent.push(request);
      return answer(request);
    },
  });
  return { app, sent };
}
