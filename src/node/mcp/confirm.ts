/**
 * How the MCP server asks the person before a call that deletes or replaces something, in both protocol revisions:
 * the 2025 revisions with an elicitation request while the call waits (askWhileWaiting), 2026-07-28 by answering the
 * call with the question (input_required) and running it when the client calls again with the answer (askInBand).
 * Both ask with the same form and text, take an answer the same way, and refuse with the same envelope.
 */
import { createHash } from 'node:crypto';
import {
  inputRequired,
  type InputRequiredResult,
  inputResponse,
  SdkError,
  SdkErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { failure, type FailureEnvelope } from '../../core/envelope';
import { CancelledError } from '../../core/errors';
import type { Preparation } from '../../core/tool';

/** The text the person is asked to confirm: the editor's confirmation, title and message. */
export function confirmationText(confirmation: NonNullable<Preparation['confirmation']>): string {
  return `${confirmation.title}\n\n${confirmation.message}`;
}

/** The one field of the confirmation form and its two answers. */
export const CONFIRM_FIELD = 'answer';
export const CONFIRM_YES = 'Yes';
export const CONFIRM_NO = 'No';

/**
 * The form a confirmation asks with: one choice between Yes and No, No preselected. A form without fields is drawn
 * by some clients (VS Code 1.139's chat) as nothing at all, with no text and no button, so nobody can answer it;
 * a single-select enum is drawn by every client that draws forms. No is the default so that a client that submits
 * the defaults unseen (VS Code does when the person moves on without answering) declines; the field is not
 * required, so a client that accepts without filling in the form (its own approval standing in) still validates.
 */
const CONFIRM_SCHEMA = {
  type: 'object',
  properties: {
    [CONFIRM_FIELD]: { type: 'string', title: 'Go ahead?', enum: [CONFIRM_YES, CONFIRM_NO], default: CONFIRM_NO },
  },
} as const;

/**
 * What an elicitation's answer means: an accept whose field says No is the person declining, whatever the action
 * was called. An accept without the field is a client that approved without showing the form: its approval stands,
 * as it does for a client that cannot ask.
 */
function confirmationAnswer(result: { readonly action: string; readonly content?: Readonly<Record<string, unknown>> }): string {
  if (result.action !== 'accept') return result.action;
  const answer = result.content?.[CONFIRM_FIELD];
  return answer === undefined || answer === CONFIRM_YES ? 'accept' : 'decline';
}

/** How long the person has to answer a confirmation before it counts as declined. */
export const CONFIRMATION_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * The sealed state a 2026-07-28 confirmation round hands the client, echoed back with the answer: which call the
 * answer is for (its tool and arguments, hashed), so an answer given for one call never lets another run.
 */
export interface ConfirmState {
  readonly call: string;
}

/** The key of the confirmation among a call's input requests. */
const CONFIRM_INPUT = 'confirm';

export function callKey(name: string, input: unknown): string {
  return createHash('sha256')
    .update(name)
    .update('\0')
    .update(JSON.stringify(input) ?? '')
    .digest('base64url');
}

/**
 * Some clients say they can ask and then answer by themselves, with nobody shown the question: Claude Code in print
 * mode dismisses it, `codex exec` declines it (with full access too), and so does `copilot -p`. Such an answer still
 * refuses the call
 * (the server cannot tell it from a person's); the refusal says what the person can set so that these calls run,
 * each a choice they make: an answer of their own for the client to give, or the client's own approval of the tools
 * with the server's question off.
 */
function unattendedRemedy(client: string | undefined): string {
  const prefix = 'If nobody was shown a question:';
  if (client === 'claude-code')
    return `${prefix} Claude Code in print mode (claude -p) dismisses every question. To let such calls run there, add an Elicitation hook for agent-fs to Claude Code's settings, or start agent-fs-mcp with --confirm never and allow the tools by name with --allowedTools.`;
  if (client === 'codex-mcp-client')
    return `${prefix} codex exec declines every question itself. To let such calls run, start agent-fs-mcp with --confirm never and approve the tools in Codex (default_tools_approval_mode = "approve" under [mcp_servers.agent-fs]).`;
  if (client === 'copilot-cli')
    return `${prefix} the GitHub Copilot CLI in prompt mode (copilot -p) declines every question itself. To let such calls run there, start agent-fs-mcp with --confirm never and allow its tools with --allow-tool=agent-fs.`;
  return `${prefix} this client answers for the person; start agent-fs-mcp with --confirm never to leave the confirmation to the client's own tool approval.`;
}

/** The refusal of a call whose confirmation a client cannot ask for, under --confirm require. */
function cannotAsk(operation: string, confirmation: NonNullable<Preparation['confirmation']>): FailureEnvelope {
  return failure(
    operation,
    'CONFIRMATION_DECLINED',
    `${confirmation.title} This needs the person's confirmation, and this MCP client cannot ask for it (no elicitation support); the server runs with --confirm require. Nothing was changed.`,
    { reason: 'unsupported' },
  );
}

/** The refusal of a call whose confirmation the person (or the client for them) declined or dismissed. */
function declined(
  operation: string,
  confirmation: NonNullable<Preparation['confirmation']>,
  action: string,
  client: string | undefined,
): FailureEnvelope {
  return failure(
    operation,
    'CONFIRMATION_DECLINED',
    `${confirmation.title} The person declined it${action === 'cancel' ? ' (dismissed the question)' : ''}. Nothing was changed. Ask them before trying again. ${unattendedRemedy(client)}`,
    { reason: action === 'cancel' ? 'cancelled' : 'declined' },
  );
}

/**
 * The 2025 revisions: asks the person with an elicitation request while the call waits, where the preparation has a
 * confirmation (a client that cannot ask, here only under --confirm require, is refused). Returns the
 * CONFIRMATION_DECLINED envelope when the call must not run, undefined when it may.
 */
export async function askWhileWaiting(
  canAsk: boolean,
  operation: string,
  preparation: Preparation,
  client: string | undefined,
  ctx: ServerContext,
): Promise<FailureEnvelope | undefined> {
  const { confirmation } = preparation;
  if (!confirmation) return undefined;
  if (!canAsk) return cannotAsk(operation, confirmation);
  let action: string;
  try {
    const answer = await ctx.mcpReq.elicitInput(
      { mode: 'form', message: confirmationText(confirmation), requestedSchema: CONFIRM_SCHEMA },
      { signal: ctx.mcpReq.signal, timeout: CONFIRMATION_TIMEOUT_MS },
    );
    action = confirmationAnswer(answer);
  } catch (error) {
    if (ctx.mcpReq.signal.aborted) throw new CancelledError();
    const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
    return failure(
      operation,
      'CONFIRMATION_DECLINED',
      `${confirmation.title} ${timedOut ? 'The confirmation got no answer in time' : `Asking for confirmation failed (${error instanceof Error ? error.message : String(error)})`}, so it counts as declined. Nothing was changed.`,
      { reason: timedOut ? 'timeout' : 'failed' },
    );
  }
  return action === 'accept' ? undefined : declined(operation, confirmation, action, client);
}

/**
 * 2026-07-28: the question goes back as the call's result (input_required) with sealed state naming the call, and the
 * client calls again with the person's answer. Returns that input_required result, the CONFIRMATION_DECLINED
 * envelope, or undefined when the call may run. An answer counts only with the state minted for this very call; any
 * other retry is asked again.
 */
export async function askInBand(
  operation: string,
  key: string,
  preparation: Preparation,
  canAsk: boolean,
  client: string | undefined,
  ctx: ServerContext,
  mint: (state: ConfirmState) => Promise<string>,
): Promise<FailureEnvelope | InputRequiredResult | undefined> {
  const { confirmation } = preparation;
  if (!confirmation) return undefined;
  if (!canAsk) return cannotAsk(operation, confirmation);
  const state = ctx.mcpReq.requestState<ConfirmState>();
  const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_INPUT);
  if (state?.call === key && answer.kind === 'elicit') {
    const action = confirmationAnswer(answer);
    return action === 'accept' ? undefined : declined(operation, confirmation, action, client);
  }
  return inputRequired({
    inputRequests: {
      [CONFIRM_INPUT]: inputRequired.elicit({ mode: 'form', message: confirmationText(confirmation), requestedSchema: CONFIRM_SCHEMA }),
    },
    requestState: await mint({ call: key }),
  });
}
