import type { AnyOperation } from "../../http/define.ts";
import noteList from "./note-list.ts";
import noteCreate from "./note-create.ts";
import noteGet from "./note-get.ts";
import noteUpdate from "./note-update.ts";
import noteDelete from "./note-delete.ts";

export const noteOperations = [noteList, noteCreate, noteGet, noteUpdate, noteDelete] satisfies AnyOperation[];
