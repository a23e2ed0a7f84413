import { tool } from "ai";
import { z } from "zod";
import { CARD_HTML_MAX, defineCard, findCard } from "../../services/projects/cards.ts";
import type { AgentToolDef } from "./types.ts";

/** The data one show block carries, as JSON: at most this many characters. */
export const SHOW_DATA_MAX = 32_000;

const ZShowInput = z.object({
  card: z.string().trim().min(1).max(80).describe("The card's name in this project, e.g. 'Bar chart'"),
  html: z
    .string()
    .min(1)
    .max(CARD_HTML_MAX)
    .optional()
    .describe("Defines the card (or replaces its renderer): HTML with inline <style> and <script>. Leave it out to reuse a card defined before."),
  description: z.string().trim().max(300).optional().describe("What the card shows, for people browsing the project's cards"),
  title: z.string().trim().min(1).max(200).optional().describe("A heading for this showing"),
  data: z.unknown().describe("The JSON the card shows: window.cardData in its scripts; {{field}} or {{a.b}} in its HTML is replaced with that value, escaped"),
});

/**
 * `show`: shows data to the user through one of the project's renderer cards (RendererCardInfo),
 * as a `show` block of the reply: `{cardId, card, title, html, data}`. With `html` the card is
 * defined (or its renderer replaced) first. The block keeps the renderer it was shown with, so a
 * later change of the card does not change what this reply showed. The chat runs the HTML in a
 * sandboxed frame without network access.
 */
export const showTool: AgentToolDef = {
  name: "show",
  create: (ctx) =>
    tool({
      description:
        "Show data to the user as a rendered card (a chart, a table, a summary) instead of text. A card is a reusable HTML renderer of this project: define it once with `html`, then show other data with it by name. The HTML runs in a sandboxed frame with no network; it reads the data as `window.cardData`, and `{{field}}` in the HTML is replaced with the data's value.",
      inputSchema: ZShowInput,
      execute: async ({ card: name, html, description, title, data }) => {
        const json = JSON.stringify(data ?? null);
        if (json.length > SHOW_DATA_MAX) throw new Error(`data is ${json.length} characters as JSON; at most ${SHOW_DATA_MAX}`);
        const { card, created } = html !== undefined ? await defineCard(ctx.caller, ctx.todo.projectId, { name, html, description }) : { card: await findCard(ctx.caller, ctx.todo.projectId, name), created: false };
        if (!card) throw new Error(`This project has no card named "${name}": give its html to define it`);
        const block = await ctx.steps.add({ type: "show", actionable: false, content: { cardId: card.id, card: card.name, title: title ?? null, html: card.html, data: JSON.parse(json) as unknown } });
        return { blockId: block.id, cardId: card.id, card: card.name, defined: html === undefined ? null : created ? "created" : "replaced" };
      },
    }),
};
