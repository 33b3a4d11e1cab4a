// The official TypeScript SDK client, driven by the node test tier (tests/node_support.py).
// argv[2] is a JSON plan: {"command": [...], "cwd"?: "..."} for stdio or {"url": "..."} for
// streamable HTTP, and "calls": [[name, arguments], ...]. Prints one JSON document: the server's
// info, the listed tools and, per call, the result or the error the SDK raised (code, message).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(process.argv[2]);
const transport = plan.url
  ? new StreamableHTTPClientTransport(new URL(plan.url))
  : new StdioClientTransport({
      command: plan.command[0],
      args: plan.command.slice(1),
      cwd: plan.cwd,
      stderr: "inherit",
    });
const client = new Client({ name: "toolgen-node-tests", version: "1.0.0" });
await client.connect(transport);
const listed = await client.listTools();
const calls = [];
for (const [name, args] of plan.calls ?? []) {
  try {
    calls.push({ result: await client.callTool({ name, arguments: args }) });
  } catch (error) {
    calls.push({ error: { code: error.code ?? null, message: String(error.message) } });
  }
}
console.log(JSON.stringify({ serverInfo: client.getServerVersion(), tools: listed.tools, calls }));
await client.close();
