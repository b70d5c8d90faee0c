import { z } from "zod";

const answers = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The API's answer shape `{ data: schema }`, made once per schema. Pages render per request;
 * a schema built inside a page would be built (and compiled by zod) again on every request,
 * which costs more than the page's own work (decision 112).
 */
export function answerOf<T extends z.ZodType>(schema: T): z.ZodObject<{ data: T }> {
  let answer = answers.get(schema);
  if (!answer) {
    answer = z.object({ data: schema });
    answers.set(schema, answer);
  }
  return answer as z.ZodObject<{ data: T }>;
}
