import { tool } from "ai";
import { z } from "zod";
import { createNote, recallNotes } from "../../services/notes/notes.ts";
import type { AgentToolDef } from "./types.ts";

// `remember` and `recall`: the memory notes of the search issue (docs/api.md "Search and memory
// notes"), kept and found as the todo's owner. A project note follows the project's access (its
// readers see it, a viewer's agent cannot write one); a personal note is the owner's alone.

export const rememberTool: AgentToolDef = {
  name: "remember",
  create: (ctx) =>
    tool({
      description:
        "Keep a short note for later turns and other todos: a fact, a preference or a decision worth remembering. Project notes are shared with the project's people; personal notes only with the owner.",
      inputSchema: z.object({
        content: z.string().trim().min(1).max(2000).describe("The note, self-contained (it is read without this conversation)"),
        scope: z.enum(["project", "personal"]).default("project").describe("project: this todo's project; personal: the owner's own notes"),
      }),
      execute: async ({ content, scope }) => {
        const note = await createNote(ctx.caller, { content, projectId: scope === "project" ? ctx.todo.projectId : undefined });
        return { noteId: note.id, scope };
      },
    }),
};

export const recallTool: AgentToolDef = {
  name: "recall",
  create: (ctx) =>
    tool({
      description: "Find memory notes related to a question: the owner's personal notes and the notes of projects the owner can read, nearest first.",
      inputSchema: z.object({
        query: z.string().trim().min(1).max(500).describe("What to look for"),
        limit: z.number().int().min(1).max(20).default(5),
      }),
      execute: async ({ query, limit }) => {
        const found = await recallNotes(ctx.caller, query, { limit });
        return { notes: found.map(({ note, score }) => ({ noteId: note.id, content: note.content, projectId: note.projectId, score: Number(score.toFixed(3)) })) };
      },
    }),
};
