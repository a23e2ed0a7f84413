import { test } from "node:test";
import assert from "node:assert/strict";
import { operations } from "../index.ts";

// SPEC.md §5 item 4, as the operations declare it (defineTeamOperation's `teamRoles`), so the
// matrix is read from the registry rather than from handler code (docs/api.md "Teams").
const EXPECTED: Record<string, string[] | "none"> = {
  billing_addTeamMember: ["owner", "admin"],
  billing_revokeTeamInvite: ["owner", "admin"],
  billing_setTeamProject: ["owner", "admin"],
  billing_setTeamJoinDomain: ["owner"],
  // The owner sets roles and offers the team; the member offered it accepts (checked in the service).
  billing_setTeamMemberRole: ["owner", "admin", "member"],
  // Any member may leave; removing someone else is the owner's (checked in the service).
  billing_removeTeamMember: ["owner", "admin", "member"],
  // Not role-gated: any member reads, anyone with the token previews, the invited address accepts.
  billing_getTeam: "none",
  billing_previewTeamInvite: "none",
  billing_acceptTeamInvite: "none",
};

test("every team operation declares the roles of SPEC.md §5 item 4, and names them in its description", () => {
  const team = operations.filter((op) => op.tag === "Teams");
  assert.deepEqual(team.map((op) => op.id).sort(), Object.keys(EXPECTED).sort());
  for (const op of team) {
    const roles = (op as { teamRoles?: readonly string[] }).teamRoles;
    const want = EXPECTED[op.id]!;
    if (want === "none") {
      assert.equal(roles, undefined, op.id);
      continue;
    }
    assert.deepEqual(roles, want, op.id);
    assert.match(op.description ?? "", new RegExp(`Team roles: ${want.join(", ")}`), op.id);
    assert.ok(op.errors?.includes("FORBIDDEN") && op.errors.includes("NOT_FOUND"), `${op.id} declares 403 and 404`);
  }
});
