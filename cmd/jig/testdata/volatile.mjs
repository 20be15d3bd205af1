// A server whose one tool answers, at every call, what real servers put in
// an answer that does not change: the time in several spellings, epoch
// seconds and milliseconds, a UUID, a duration, a random ticket and a
// counter. For TestProbedFixtureStaysGreen.
//
//   node volatile.mjs SDK_DIR [date|iso] [readonly]
import path from "node:path";
import { pathToFileURL } from "node:url";
import { randomUUID, randomBytes } from "node:crypto";

const [sdk, style = "date", ro = ""] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(path.join(sdk, "dist/esm", p)).href);
const { McpServer } = await load("server/mcp.js");
const { StdioServerTransport } = await load("server/stdio.js");

const server = new McpServer({ name: "volatile", version: "1.0.0" });
let counter = 0;
const annotations = ro ? { readOnlyHint: true } : {};
server.registerTool("now", { description: "what time it is", annotations }, async () => {
  counter++;
  const d = new Date();
  const took = Math.floor(Math.random() * 900) + 10;
  const ticket = randomBytes(4).toString("hex");
  const when = style === "iso" ? `${d.toISOString()} id ${randomUUID()}` : d.toString();
  return {
    content: [{ type: "text", text: `Report at ${when} took ${took}ms, ticket ${ticket}` }],
    structuredContent: { epoch: Math.floor(d.getTime() / 1000), ms: d.getTime(), counter, items: ["a", "b"] },
  };
});
await server.connect(new StdioServerTransport());
