#!/usr/bin/env node
// A real MCP server over stdio, written with the official SDK, for the MCP tests: tools that echo, fail,
// hang and return a 5 MB result, one that reports a variable it was given (to check `${VAR}`), and one whose
// schema is too big to offer.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { writeFileSync } from 'node:fs'
import { z } from 'zod'

// Proof of start for the tests: the process writes its pid where it is told to.
if (process.env.MCP_TEST_MARKER) writeFileSync(process.env.MCP_TEST_MARKER, String(process.pid))

const server = new McpServer({ name: 'glassbox-test-server', version: '1.0.0' })

server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string().max(100_000) } }, async ({ text }) => ({
  content: [{ type: 'text', text: `echo: ${text}` }]
}))
server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => ({
  content: [{ type: 'text', text: 'the tool failed on purpose' }],
  isError: true
}))
server.registerTool('hang', { description: 'Never answers.', inputSchema: {} }, () => new Promise(() => undefined))
server.registerTool('big', { description: 'Returns 5 MB of text.', inputSchema: {} }, async () => ({
  content: [{ type: 'text', text: 'x'.repeat(5 * 1024 * 1024) }]
}))
server.registerTool('secret', { description: 'Says whether TEST_TOKEN was given.', inputSchema: {} }, async () => ({
  content: [{ type: 'text', text: `token=${process.env.TEST_TOKEN ?? '(unset)'}` }]
}))

// A schema too big to send with every request: Glassbox leaves this tool out and says so.
server.registerTool('huge', { description: 'Takes one of 3,000 options.', inputSchema: { choice: z.enum(Array.from({ length: 3000 }, (_, i) => `option-${i}`)) } }, async ({ choice }) => ({
  content: [{ type: 'text', text: choice }]
}))

if (process.env.MCP_TEST_STDERR) process.stderr.write(`${process.env.MCP_TEST_STDERR}\n`)
await server.connect(new StdioServerTransport())
