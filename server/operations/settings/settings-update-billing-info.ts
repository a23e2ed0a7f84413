import { ZBillingInfoInput, ZBillingUpdateResult } from "../../../lib/schemas/billing.ts";
import { updateBillingInfo } from "../../services/settings/billing.ts";
import { defineOperation, USER_CREDENTIAL } from "../../http/define.ts";

export default defineOperation({
  id: "settings_updateBillingInfo",
  method: "PUT",
  path: "/settings/user/billing",
  tag: "Settings",
  summary: "Replace the caller's billing address and tax information",
  description:
    "The whole billing information: fields left out are removed. `address.country` is ISO 3166-1 alpha-2 in upper case; `taxId.value` is checked in shape for its `type` and stored in canonical form. Not served to device tokens.",
  auth: USER_CREDENTIAL,
  body: ZBillingInfoInput,
  response: ZBillingUpdateResult,
  handler: ({ caller, body }) => updateBillingInfo(caller, body),
});
