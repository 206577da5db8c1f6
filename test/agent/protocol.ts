/**
 * What an agent-mode spec (extension host) asks the launcher (Playwright, test/launcher/agent.ts) to do or read in the
 * page: the one thing only the page knows is what the person sees.
 */
export type BridgeRequest =
  /** The pending confirmation card's title, message and button labels (waits for one to show). */
  | { readonly action: 'card'; readonly timeoutMs?: number }
  /** Clicks a button of the pending card; a label only in the primary button's drop-down is picked from its menu. */
  | { readonly action: 'click'; readonly label: string }
  /** Opens the collapsed steps of the chat's responses, so every tool row shows. */
  | { readonly action: 'expand' }
  /** The tool rows of the chat's last response: each one's text and the codicons it shows. */
  | { readonly action: 'rows' }
  /** The notifications' messages: toasts showing and the notification center's list. */
  | { readonly action: 'notifications' }
  /** A screenshot of the window, saved in the launch's folder (and as a README picture when `readme` and --shots). */
  | { readonly action: 'shot'; readonly name: string; readonly readme?: boolean }
  /** The chat view's HTML (for a failure report). */
  | { readonly action: 'html' }
  /** The pending question an MCP server asked (elicitation): its message, title and options (waits for one). */
  | { readonly action: 'question'; readonly timeoutMs?: number }
  /** Picks an option of the pending question by its label and submits it. */
  | { readonly action: 'answer'; readonly label: string }
  /** The agent the chat's input has selected, as its picker shows it ("Agent", or a custom agent's name). */
  | { readonly action: 'mode' };

export interface ToolRow {
  readonly text: string;
  readonly icons: readonly string[];
  /** The icons the row really shows: VS Code keeps some in the page but hides them (status marks, by default). */
  readonly shownIcons: readonly string[];
}

/** A question in the chat, as drawn from an MCP server's elicitation form. */
export interface QuestionText {
  /** The elicitation's message, as rendered (Markdown). */
  readonly message: string;
  /** The field's title. */
  readonly title: string;
  readonly options: readonly string[];
  /** The option selected when the question appeared. */
  readonly selected: string | undefined;
}

export interface CardText {
  readonly title: string;
  readonly message: string;
  readonly buttons: readonly string[];
}
