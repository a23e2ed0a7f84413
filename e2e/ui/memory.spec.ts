import { expect, test, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { signedInUser, snap } from "../support/ui";
import { createUser } from "../support/users";
import { TURN_TIMEOUT, addMessage, createProject, createTodo, h, okJson, shareProject } from "../support/todos";

// Settings → Memory: the agent's memory notes (note_*), which had only the API, the CLI and the
// agent's tools: personal and per project, add with the shared schema's checks, edit, delete after
// confirming, a page at a time, read-only for a viewer.
test.describe.configure({ timeout: 90_000 });

const notes = (page: Page) => page.getByTestId("note");

test("personal notes: empty state, a refused empty note, add, edit, delete after confirming, and paging", async ({ page }, info) => {
  const u = await signedInUser(page, info, "memory");
  await page.goto("/settings");
  await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Memory" }).click();
  await expect(page).toHaveURL(/\/settings\/memory$/);
  await expect(page).toHaveTitle("Memory · Todo Service");
  await expect(page.getByTestId("notes-empty")).toBeVisible();

  const box = page.getByRole("textbox", { name: "New note" });
  await page.getByRole("button", { name: "Save note" }).click();
  await expect(page.getByText("must not be empty")).toBeVisible();
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute("aria-invalid", "true");

  await box.fill("I prefer metric units.");
  await expect(page.getByText(`22 / 4000`)).toBeVisible();
  await page.getByRole("button", { name: "Save note" }).click();
  await expect(notes(page)).toHaveCount(1);
  await expect(notes(page).first()).toContainText("I prefer metric units.");
  await expect(box).toHaveValue("");
  // Stored as the API reads it.
  const stored = await okJson<{ items: { id: string; content: string; projectId: string | null }[] }>(await u.session.get("/api/v1/notes", { headers: h(u) }));
  expect(stored.items).toEqual([expect.objectContaining({ content: "I prefer metric units.", projectId: null })]);

  await page.getByRole("button", { name: "Edit note: I prefer metric units." }).click();
  const editor = page.getByRole("form", { name: "Edit note" }).getByRole("textbox", { name: "Note" });
  await expect(editor).toBeFocused();
  await editor.fill("I prefer metric units, and 24-hour times.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(notes(page).first()).toContainText("I prefer metric units, and 24-hour times.");
  await expect(notes(page).first()).toContainText("edited");

  // Delete: Cancel keeps it; confirming deletes it, and focus comes back.
  const del = page.getByRole("button", { name: /^Delete note: I prefer metric units/ });
  await del.click();
  const dialog = page.getByRole("dialog", { name: "Delete this note?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(del).toBeFocused();
  await del.click();
  await dialog.getByRole("button", { name: "Delete note" }).click();
  await expect(page.getByTestId("notes-empty")).toBeVisible();
  expect((await okJson<{ items: unknown[] }>(await u.session.get("/api/v1/notes", { headers: h(u) }))).items).toEqual([]);

  // 55 notes: the first page of 50, then the rest.
  for (let i = 0; i < 55; i++) await okJson(await u.session.post("/api/v1/notes", { headers: h(u), data: { content: `Fact number ${i}` } }));
  await page.reload();
  await expect(notes(page)).toHaveCount(50);
  await page.getByRole("button", { name: "Load older notes" }).focus();
  await page.keyboard.press("Enter");
  await expect(notes(page)).toHaveCount(55);
  await expect(page.getByRole("button", { name: "Load older notes" })).toHaveCount(0);
  await expect(page.getByText("That is all.")).toBeFocused();
  await expect(notes(page).last()).toContainText("Fact number 0");
});

test("a project's notes: a viewer reads the project's notes without controls, and never the owner's personal ones", async ({ page }, info) => {
  const owner = await createUser(info, "memory-owner");
  const viewer = await signedInUser(page, info, "memory-viewer");
  const project = await createProject(owner, "Cookbook");
  await shareProject(owner, project.id, viewer.email, "viewer");
  await okJson(await owner.session.post("/api/v1/notes", { headers: h(owner), data: { content: "Recipes are for four people.", projectId: project.id } }));
  await okJson(await owner.session.post("/api/v1/notes", { headers: h(owner), data: { content: "The owner's own secret." } }));

  await page.goto("/settings/memory");
  await expect(page.getByTestId("notes-empty")).toBeVisible();
  await page.getByLabel("Notes of").selectOption({ label: "Cookbook (read only)" });
  await expect(page.getByRole("heading", { name: "Cookbook: notes" })).toBeVisible();
  await expect(notes(page)).toHaveCount(1);
  await expect(notes(page).first()).toContainText("Recipes are for four people.");
  await expect(page.getByRole("textbox", { name: "New note" })).toHaveCount(0);
  await expect(notes(page).first().getByRole("button")).toHaveCount(0);
  await expect(page.getByText("The owner's own secret.")).toHaveCount(0);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await snap(page, info, "memory-viewer");
});

test("the notes follow changes made elsewhere live: the agent's `remember`, a script's edit and delete, a project member's new note", async ({ page }, info) => {
  const u = await signedInUser(page, info, "memory-live");
  const editor = await createUser(info, "memory-editor");
  const project = await createProject(u, "Trips");
  await shareProject(u, project.id, editor.email, "editor");
  await page.goto("/settings/memory");
  await expect(page.getByTestId("notes-empty")).toBeVisible();

  // The agent keeps a note while the page is open (its `remember` tool, in another todo).
  const todo = await createTodo(u, project.id, { content: "Travel plans", agentSettings: { provider: "openai" } });
  await addMessage(u, todo.id, { content: "[remember I travel by train]", startProcessing: true });
  await expect(notes(page)).toHaveCount(1, { timeout: TURN_TIMEOUT });
  await expect(notes(page).first()).toContainText("I travel by train");

  // Edited, then deleted by a script (or the CLI, or another tab).
  const [note] = (await okJson<{ items: { id: string }[] }>(await u.session.get("/api/v1/notes", { headers: h(u) }))).items;
  await okJson(await u.session.patch(`/api/v1/notes/${note!.id}`, { headers: h(u), data: { content: "I travel by night train" } }));
  await expect(notes(page).first()).toContainText("I travel by night train");
  await okJson(await u.session.delete(`/api/v1/notes/${note!.id}`, { headers: h(u) }));
  await expect(page.getByTestId("notes-empty")).toBeVisible();

  // A project's notes: an editor adds one; the owner's open page shows it.
  await page.getByLabel("Notes of").selectOption({ label: "Trips" });
  await expect(page.getByRole("heading", { name: "Trips: notes" })).toBeVisible();
  await expect(page.getByTestId("notes-empty")).toBeVisible();
  await okJson(await editor.session.post("/api/v1/notes", { headers: h(editor), data: { content: "Book seats together.", projectId: project.id } }));
  await expect(notes(page)).toHaveCount(1);
  await expect(notes(page).first()).toContainText("Book seats together.");
  await snap(page, info, "memory-live");
});
