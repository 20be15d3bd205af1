// A tmcp server over Streamable HTTP on 127.0.0.1:$PORT/mcp, for jig's tests
// (tmcp checks the 2026-07-28 Mcp-Method/Mcp-Name headers strictly). Our own
// few lines on tmcp's library; .ci/peers.d/50-tmcp.sh installs tmcp.
import http from 'node:http';
import { McpServer } from 'tmcp';
import { HttpTransport } from '@tmcp/transport-http';
import { ValibotJsonSchemaAdapter } from '@tmcp/adapter-valibot';
import * as v from 'valibot';

const server = new McpServer(
	{ name: 'tmcp-peer', version: '1.0.0', description: 'jig test peer' },
	{ adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
server.tool(
	{ name: 'echo', description: 'Echoes the message', schema: v.object({ message: v.string() }) },
	async ({ message }) => ({ content: [{ type: 'text', text: 'echo: ' + message }] }),
);
server.tool({ name: 'slow', description: 'Answers after 20 seconds' }, async () => {
	await new Promise((r) => setTimeout(r, 20000));
	return { content: [{ type: 'text', text: 'slow: done' }] };
});

const transport = new HttpTransport(server);
http
	.createServer(async (req, res) => {
		const chunks = [];
		for await (const c of req) chunks.push(c);
		const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
		const headers = new Headers();
		for (const [k, val] of Object.entries(req.headers)) {
			if (Array.isArray(val)) val.forEach((x) => headers.append(k, x));
			else if (val !== undefined) headers.set(k, val);
		}
		const request = new Request(`http://${req.headers.host}${req.url}`, {
			method: req.method,
			headers,
			body: hasBody ? Buffer.concat(chunks) : undefined,
			duplex: 'half',
		});
		const response = (await transport.respond(request)) ?? new Response(null, { status: 404 });
		res.writeHead(response.status, Object.fromEntries(response.headers));
		if (response.body) {
			try {
				for await (const chunk of response.body) res.write(chunk);
			} catch {}
		}
		res.end();
	})
	.listen(Number(process.env.PORT), '127.0.0.1', () => console.error('tmcp-peer listening on ' + process.env.PORT));
