// A client of the official TypeScript SDK, for TestTypeScriptClient: it
// connects to jig mock (stdio: the command after "--"; http: a URL), runs
// the steps the test names, and prints one JSON object of what it saw.
//
//   node tsclient.mjs SDK_DIR stdio STEPS -- COMMAND ARGS...
//   node tsclient.mjs SDK_DIR http STEPS URL
//
// STEPS is a comma-separated list: list, echo, miss, slow, pinnedflow,
// changed (waits up to 30 s for a tools/list_changed outside any request),
// pages (resources/list page by page: each page's nextCursor and the URIs).
import path from "node:path";
import { pathToFileURL } from "node:url";

const [sdk, mode, steps, ...rest] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(path.join(sdk, "dist/esm", p)).href);
const { Client } = await load("client/index.js");
const { ElicitRequestSchema, ToolListChangedNotificationSchema } = await load("types.js");

let transport;
if (mode === "stdio") {
  const { StdioClientTransport } = await load("client/stdio.js");
  const cmd = rest.slice(rest.indexOf("--") + 1);
  transport = new StdioClientTransport({ command: cmd[0], args: cmd.slice(1), env: process.env, stderr: "inherit" });
} else {
  const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
  transport = new StreamableHTTPClientTransport(new URL(rest[0]));
}

const client = new Client({ name: "ts-test-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
const out = { elicitations: [] };
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  out.elicitations.push(req.params.message);
  return { action: "accept", content: { ok: true } };
});
// Registered before connecting: the mock sends it right after the handshake.
// The wait is timed only in the step that waits: a timer armed here kept
// the process alive for 30 s after a run without that step.
let sawChanged;
const changed = new Promise((resolve) => (sawChanged = resolve));
client.setNotificationHandler(ToolListChangedNotificationSchema, () => sawChanged(true));
await client.connect(transport);
out.server = client.getServerVersion();
out.protocol = transport.protocolVersion ?? null;

for (const step of steps.split(",")) {
  switch (step) {
    case "list": {
      const r = await client.listTools();
      out.tools = r.tools.map((t) => t.name);
      break;
    }
    case "echo": {
      const r = await client.callTool({ name: "echo", arguments: { text: "hi" } });
      out.echo = r.content.map((c) => c.text).join("");
      break;
    }
    case "miss":
      try {
        await client.callTool({ name: "echo", arguments: { text: "bye" } });
        out.miss = "answered";
      } catch (e) {
        out.miss = String(e.message);
      }
      break;
    case "changed": {
      let timer;
      out.changed = await Promise.race([changed, new Promise((resolve) => (timer = setTimeout(() => resolve(false), 30000)))]);
      clearTimeout(timer);
      break;
    }
    case "pinnedflow": {
      // The pinned flow fixture (flowFixture): echo "slow" sent progress,
      // asked for an elicitation and sent progress again.
      out.progress = [];
      const r = await client.callTool({ name: "echo", arguments: { text: "slow" } }, undefined, {
        onprogress: (p) => out.progress.push(p.progress),
      });
      out.slow = r.content.map((c) => c.text).join("");
      break;
    }
    case "pages": {
      out.cursors = [];
      out.uris = [];
      let cursor;
      for (let n = 0; n < 50; n++) {
        const r = await client.listResources(cursor === undefined ? undefined : { cursor });
        out.uris.push(...r.resources.map((x) => x.uri));
        if (!r.nextCursor) break;
        out.cursors.push(r.nextCursor);
        cursor = r.nextCursor;
      }
      break;
    }
    case "slow": {
      out.progress = [];
      const r = await client.callTool({ name: "slow", arguments: {} }, undefined, {
        onprogress: (p) => out.progress.push(p.progress),
      });
      out.slow = r.content.map((c) => c.text).join("");
      break;
    }
  }
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
