/**
 * A scripted model on 127.0.0.1, in the wire format of each agent CLI: Anthropic Messages (Claude Code), OpenAI
 * Responses (Codex CLI), Gemini's generateContent (Gemini CLI) and OpenAI Chat Completions (GitHub Copilot CLI,
 * opencode). Every request is recorded as it arrived.
 *
 * The model is stateless, as a real one is: each request carries the whole conversation, and the script decides the
 * next step from it alone (how many tool results it holds), so a client's retry of a request gets the same answer.
 * A request that offers none of the Agent FS tools (a title, a router, a token count) is a side request: it gets a
 * plain answer and does not advance the script.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool as the client offered it to the model: its own name for it, and what the model reads. */
export interface OfferedTool {
  readonly name: string;
  readonly description: string;
  readonly schema: unknown;
}

/** One tool result as the model received it: the text it reads, and the error flag where the format has one. */
export interface ReceivedResult {
  readonly tool: string;
  readonly text: string;
  readonly isError?: boolean;
}

/** What one main request shows the model: the tools offered and every tool result so far, in order. */
export interface Turn {
  readonly tools: readonly OfferedTool[];
  readonly results: readonly ReceivedResult[];
}

export type Reply = { readonly call: string; readonly args: Readonly<Record<string, unknown>> } | { readonly text: string };

/** Decides the next reply from the conversation; `tool` is the client's name for an Agent FS tool. */
export type Script = (turn: Turn) => Reply;

interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  /** The turn it was read as, when it offered the Agent FS tools. */
  readonly turn?: Turn;
}

interface Answer {
  readonly status?: number;
  readonly contentType: string;
  readonly body: string;
}

/** A wire format: how to read a request as a turn, and how to write a reply or a side answer. */
export interface Dialect {
  readonly name: string;
  /** The turn of a main request, or undefined for a side request. `isOurs` tells an Agent FS tool by its name. */
  read(url: string, body: unknown, isOurs: (name: string) => boolean): Turn | undefined;
  reply(url: string, body: unknown, reply: Reply, serial: number): Answer;
  side(url: string, body: unknown): Answer;
}

export interface ScriptedModel {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Where the script could not go on (an earlier result lacked what a step needs): the run then ends at once. */
  readonly failures: string[];
  /** The last main request's turn: every result the model saw. */
  lastTurn(): Turn | undefined;
  /** The first main request's turn: the tools as first offered. */
  firstTurn(): Turn | undefined;
  close(): Promise<void>;
}

export async function startModel(dialect: Dialect, script: Script, isOurs: (name: string) => boolean): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  const failures: string[] = [];
  let serial = 0;
  // A script that cannot go on answers in plain text, which ends the client's run: an HTTP error would only make the
  // client retry for minutes.
  const next = (turn: Turn): Reply => {
    try {
      return script(turn);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
      return { text: 'The scripted model stopped.' };
    }
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      let answer: Answer;
      let turn: Turn | undefined;
      try {
        turn = dialect.read(url, body, isOurs);
        answer = turn ? dialect.reply(url, body, next(turn), ++serial) : dialect.side(url, body);
      } catch (error) {
        answer = {
          status: 500,
          contentType: 'text/plain',
          body: `scripted model: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        };
      }
      requests.push({ method: request.method ?? '', url, body, ...(turn ? { turn } : {}) });
      response.writeHead(answer.status ?? 200, { 'content-type': answer.contentType });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const turns = (): Turn[] => requests.flatMap((each) => (each.turn ? [each.turn] : []));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failures,
    lastTurn: () => turns().at(-1),
    firstTurn: () => turns()[0],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function sse(events: readonly (readonly [string | undefined, unknown])[]): string {
  return events.map(([event, data]) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`).join('');
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The text of a content value that is a string or a list of text blocks. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((block) => str(record(block).text))
    .join('');
}

/** Claude Code: `POST /v1/messages`, streamed as Anthropic's SSE events. */
export const anthropic: Dialect = {
  name: 'Anthropic Messages',
  read(url, body, isOurs) {
    if (!url.startsWith('/v1/messages')) return undefined;
    const request = record(body);
    const tools = list(request.tools).map((tool) => {
      const each = record(tool);
      return { name: str(each.name), description: str(each.description), schema: each.input_schema };
    });
    if (!tools.some((tool) => isOurs(tool.name))) return undefined;
    const names = new Map<string, string>();
    const results: ReceivedResult[] = [];
    for (const message of list(request.messages)) {
      for (const block of list(record(message).content)) {
        const each = record(block);
        if (each.type === 'tool_use') names.set(str(each.id), str(each.name));
        if (each.type === 'tool_result') {
          const id = str(each.tool_use_id);
          results.push({ tool: names.get(id) ?? '', text: textOf(each.content), isError: each.is_error === true });
        }
      }
    }
    return { tools, results };
  },
  reply(_url, body, reply, serial) {
    const model = str(record(body).model);
    const start: [string, unknown] = [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: `msg_${serial}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ];
    const block =
      'call' in reply
        ? [
            [
              'content_block_start',
              {
                type: 'content_block_start',
                index: 0,
                content_block: { type: 'tool_use', id: `toolu_${serial}`, name: reply.call, input: {} },
              },
            ],
            [
              'content_block_delta',
              { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.args) } },
            ],
          ]
        : [
            ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
            ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply.text } }],
          ];
    const stop = 'call' in reply ? 'tool_use' : 'end_turn';
    return {
      contentType: 'text/event-stream',
      body: sse([
        start,
        ...(block as [string, unknown][]),
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } }],
        ['message_stop', { type: 'message_stop' }],
      ]),
    };
  },
  side(url, body) {
    if (!url.startsWith('/v1/messages'))
      return {
        status: 404,
        contentType: 'application/json',
        body: '{"type":"error","error":{"type":"not_found_error","message":"not here"}}',
      };
    return anthropic.reply(url, body, { text: 'ok' }, 0);
  },
};

/**
 * Codex CLI: `POST /v1/responses`, SSE. MCP tools arrive grouped in one `namespace` tool per server; a tool in one is
 * named `<namespace>/<tool>` here, and a call to it carries the namespace apart from the name, as Codex requires.
 */
export const responses: Dialect = {
  name: 'OpenAI Responses',
  read(url, body, isOurs) {
    if (!url.startsWith('/v1/responses')) return undefined;
    const request = record(body);
    const tools: OfferedTool[] = [];
    for (const tool of list(request.tools)) {
      const each = record(tool);
      if (each.type === 'namespace') {
        for (const inner of list(each.tools)) {
          const fn = record(inner);
          tools.push({ name: `${str(each.name)}/${str(fn.name)}`, description: str(fn.description), schema: fn.parameters });
        }
      } else tools.push({ name: str(each.name), description: str(each.description), schema: each.parameters });
    }
    if (!tools.some((tool) => isOurs(tool.name))) return undefined;
    const names = new Map<string, string>();
    const results: ReceivedResult[] = [];
    for (const item of list(request.input)) {
      const each = record(item);
      if (each.type === 'function_call') names.set(str(each.call_id), `${str(each.namespace)}/${str(each.name)}`);
      if (each.type === 'function_call_output') {
        const output = each.output;
        results.push({ tool: names.get(str(each.call_id)) ?? '', text: typeof output === 'string' ? output : textOf(output) });
      }
    }
    return { tools, results };
  },
  reply(_url, body, reply, serial) {
    const model = str(record(body).model);
    const id = `resp_${serial}`;
    let item: Record<string, unknown>;
    if ('call' in reply) {
      const [namespace, name] = reply.call.includes('/') ? reply.call.split('/', 2) : [undefined, reply.call];
      item = {
        type: 'function_call',
        id: `fc_${serial}`,
        call_id: `call_${serial}`,
        ...(namespace === undefined ? {} : { namespace }),
        name,
        arguments: JSON.stringify(reply.args),
        status: 'completed',
      };
    } else {
      item = {
        type: 'message',
        id: `msg_${serial}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      };
    }
    const response = {
      id,
      object: 'response',
      model,
      status: 'completed',
      output: [item],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    };
    return {
      contentType: 'text/event-stream',
      body: sse([
        ['response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } }],
        ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
        ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
        ['response.completed', { type: 'response.completed', response }],
      ]),
    };
  },
  side(url, body) {
    if (url.startsWith('/v1/responses')) return responses.reply(url, body, { text: 'ok' }, 0);
    if (url.startsWith('/v1/models'))
      return { contentType: 'application/json', body: JSON.stringify({ object: 'list', data: [], models: [] }) };
    return { status: 404, contentType: 'application/json', body: '{"error":{"message":"not here"}}' };
  },
};

/** Gemini CLI: `:streamGenerateContent?alt=sse` for the agent loop, `:generateContent` (JSON) for its router. */
export const gemini: Dialect = {
  name: 'Gemini generateContent',
  read(url, body, isOurs) {
    if (!url.includes(':streamGenerateContent')) return undefined;
    const request = record(body);
    const tools: OfferedTool[] = [];
    for (const tool of list(request.tools)) {
      for (const declaration of list(record(tool).functionDeclarations)) {
        const each = record(declaration);
        tools.push({ name: str(each.name), description: str(each.description), schema: each.parametersJsonSchema ?? each.parameters });
      }
    }
    if (!tools.some((tool) => isOurs(tool.name))) return undefined;
    const results: ReceivedResult[] = [];
    for (const content of list(request.contents)) {
      for (const part of list(record(content).parts)) {
        const response = record(record(part).functionResponse);
        if (Object.keys(response).length === 0) continue;
        const payload = record(response.response);
        const text =
          typeof payload.output === 'string' ? payload.output : typeof payload.error === 'string' ? payload.error : JSON.stringify(payload);
        results.push({ tool: str(response.name), text, isError: payload.error !== undefined });
      }
    }
    return { tools, results };
  },
  reply(_url, _body, reply) {
    const part = 'call' in reply ? { functionCall: { name: reply.call, args: reply.args } } : { text: reply.text };
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      modelVersion: 'scripted',
    };
    return { contentType: 'text/event-stream', body: sse([[undefined, chunk]]) };
  },
  side(url, body) {
    if (url.includes(':countTokens')) return { contentType: 'application/json', body: JSON.stringify({ totalTokens: 1 }) };
    if (url.includes(':streamGenerateContent')) return gemini.reply(url, body, { text: 'ok' }, 0);
    if (url.includes(':generateContent')) {
      // The model router (and other JSON-mode helpers) parse the text as JSON; a plain answer costs minutes of retries.
      const text = JSON.stringify({ reasoning: 'scripted', model_choice: 'flash', next_speaker: 'user' });
      const answer = {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      };
      return { contentType: 'application/json', body: JSON.stringify(answer) };
    }
    return { status: 404, contentType: 'application/json', body: '{"error":{"code":404,"message":"not here"}}' };
  },
};

/**
 * GitHub Copilot CLI and opencode: `POST /v1/chat/completions`, streamed as `chat.completion.chunk` events ending in
 * `[DONE]`, or one `chat.completion` when the request does not ask for a stream. A result carries no error flag.
 */
export const chatCompletions: Dialect = {
  name: 'OpenAI Chat Completions',
  read(url, body, isOurs) {
    if (!url.includes('/chat/completions')) return undefined;
    const request = record(body);
    const tools = list(request.tools).map((tool) => {
      const fn = record(record(tool).function);
      return { name: str(fn.name), description: str(fn.description), schema: fn.parameters };
    });
    if (!tools.some((tool) => isOurs(tool.name))) return undefined;
    const names = new Map<string, string>();
    const results: ReceivedResult[] = [];
    for (const message of list(request.messages)) {
      const each = record(message);
      for (const call of list(each.tool_calls)) names.set(str(record(call).id), str(record(record(call).function).name));
      if (each.role === 'tool') results.push({ tool: names.get(str(each.tool_call_id)) ?? '', text: textOf(each.content) });
    }
    return { tools, results };
  },
  reply(_url, body, reply, serial) {
    const request = record(body);
    const model = str(request.model);
    const id = `chatcmpl-${serial}`;
    const created = Math.floor(Date.now() / 1000);
    const calls =
      'call' in reply
        ? [{ index: 0, id: `call_${serial}`, type: 'function', function: { name: reply.call, arguments: JSON.stringify(reply.args) } }]
        : undefined;
    const finish = calls ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    if (request.stream !== true) {
      const message = calls
        ? { role: 'assistant', content: null, tool_calls: calls.map(({ index: _index, ...call }) => call) }
        : { role: 'assistant', content: 'text' in reply ? reply.text : '' };
      return {
        contentType: 'application/json',
        body: JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message, finish_reason: finish }],
          usage,
        }),
      };
    }
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
    const delta = calls
      ? { role: 'assistant', content: null, tool_calls: calls }
      : { role: 'assistant', content: 'text' in reply ? reply.text : '' };
    return {
      contentType: 'text/event-stream',
      body: [
        chunk([{ index: 0, delta, finish_reason: null }]),
        chunk([{ index: 0, delta: {}, finish_reason: finish }]),
        chunk([], { usage }),
        'data: [DONE]\n\n',
      ].join(''),
    };
  },
  side(url, body) {
    if (url.includes('/chat/completions')) return chatCompletions.reply(url, body, { text: 'ok' }, 0);
    if (url.endsWith('/models')) return { contentType: 'application/json', body: JSON.stringify({ object: 'list', data: [] }) };
    return { status: 404, contentType: 'application/json', body: '{"error":{"message":"not here"}}' };
  },
};
