/**
 * The Get Started walkthrough as package.json contributes it: four to six steps, each with its text, a picture the
 * .vsix ships, at least one button, and completion events that name what Agent FS really contributes (a command, a
 * setting, a view), so that a step can complete. Whether VS Code then completes them is the ui launch's check.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');

interface Step {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly media: { readonly image?: string; readonly svg?: string; readonly altText?: string };
  readonly completionEvents: readonly string[];
}

interface Manifest {
  readonly contributes: {
    readonly walkthroughs: readonly { readonly id: string; readonly title: string; readonly steps: readonly Step[] }[];
    readonly commands: readonly { readonly command: string }[];
    readonly configuration: { readonly properties: Readonly<Record<string, unknown>> };
    readonly views: Readonly<Record<string, readonly { readonly id: string }[]>>;
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
const strings = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const { contributes } = manifest;
const commands = new Set(contributes.commands.map((command) => command.command));
const settings = new Set(Object.keys(contributes.configuration.properties));
const views = new Set(Object.values(contributes.views).flatMap((list) => list.map((view) => view.id)));
/** VS Code's own commands a step may use: opening the Settings editor on Agent FS's settings. */
const WORKBENCH_COMMANDS = new Set(['workbench.action.openSettings']);
/** The command VS Code contributes to focus a view: `<view id>.focus`. */
const isViewFocus = (command: string): boolean => command.endsWith('.focus') && views.has(command.slice(0, -'.focus'.length));

/** A `%key%` string as the English person reads it. */
function english(value: string): string {
  const key = /^%(.+)%$/.exec(value)?.[1];
  if (key === undefined) return value;
  const text = strings[key];
  assert.ok(text !== undefined, `package.nls.json has no ${key}`);
  return text;
}

/** The commands of a step's buttons: `[label](command:id?args)` links in its description. */
function buttons(description: string): string[] {
  return [...description.matchAll(/\]\(command:([\w.-]+)/g)].map((match) => match[1] ?? '');
}

describe('Get Started walkthrough', function () {
  it('is one walkthrough of four to six steps, each with a title, a text and a picture the .vsix ships', function () {
    assert.equal(contributes.walkthroughs.length, 1);
    const [walkthrough] = contributes.walkthroughs;
    assert.ok(walkthrough);
    assert.ok(walkthrough.steps.length >= 4 && walkthrough.steps.length <= 6, `${walkthrough.steps.length} steps`);
    const shipped = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    for (const step of walkthrough.steps) {
      assert.ok(english(step.title).length > 0 && english(step.description).length > 0, step.id);
      const picture = step.media.image ?? step.media.svg;
      assert.ok(picture !== undefined, `${step.id} has no picture`);
      assert.ok(fs.statSync(path.join(ROOT, picture)).size > 0, `${picture} is empty`);
      assert.ok(shipped.includes(`!${path.dirname(picture)}/*${path.extname(picture)}`), `.vscodeignore leaves ${picture} out`);
      assert.ok(english(step.media.altText ?? '').length > 0, `${step.id} has no alt text`);
    }
  });

  it('gives every step a button that runs a real command, and completes the step when it is used', function () {
    for (const step of contributes.walkthroughs[0]?.steps ?? []) {
      const used = buttons(english(step.description));
      assert.ok(used.length > 0, `${step.id} has no button`);
      for (const command of used) {
        assert.ok(commands.has(command) || WORKBENCH_COMMANDS.has(command) || isViewFocus(command), `${step.id}: ${command}`);
        // A view's focus command shows the view: its onView event is the one that completes the step.
        const completes = isViewFocus(command) ? `onView:${command.slice(0, -'.focus'.length)}` : `onCommand:${command}`;
        assert.ok(step.completionEvents.includes(completes), `${step.id}: its button ${command} does not complete it`);
      }
    }
  });

  it("completes steps only on events that name Agent FS's own commands, settings and views", function () {
    for (const step of contributes.walkthroughs[0]?.steps ?? []) {
      assert.ok(step.completionEvents.length > 0, `${step.id} can never complete`);
      for (const event of step.completionEvents) {
        const [kind, name = ''] = event.split(/:(.*)/s);
        if (kind === 'onCommand') assert.ok(commands.has(name) || WORKBENCH_COMMANDS.has(name), event);
        else if (kind === 'onSettingChanged') assert.ok(settings.has(name), event);
        else if (kind === 'onView') assert.ok(views.has(name), event);
        else assert.fail(`${step.id}: an event of a kind this test does not know: ${event}`);
      }
    }
  });
});
