import type { AnyOperation } from "../../http/define.ts";
import cliDeviceToken from "./cli-device-token.ts";
import cliEnrollSelf from "./cli-enroll-self.ts";
import cliLoginApprove from "./cli-login-approve.ts";
import cliLoginDeny from "./cli-login-deny.ts";
import cliLoginInit from "./cli-login-init.ts";
import cliLoginPoll from "./cli-login-poll.ts";
import cliLoginRequest from "./cli-login-request.ts";
import cliMayflyToken from "./cli-mayfly-token.ts";
import deviceCloud from "./device-cloud.ts";
import deviceDelete from "./device-delete.ts";
import deviceList from "./device-list.ts";
import deviceResyncCloud from "./device-resync-cloud.ts";
import deviceSetWorkspacePaths from "./device-set-workspace-paths.ts";
import edgeDelete from "./edge-delete.ts";
import edgeGet from "./edge-get.ts";
import edgeList from "./edge-list.ts";
import edgeSubscribe from "./edge-subscribe.ts";
import edgeUpdate from "./edge-update.ts";

export const deviceOperations = [
  edgeList,
  edgeGet,
  edgeUpdate,
  edgeDelete,
  edgeSubscribe,
  deviceList,
  deviceCloud,
  deviceResyncCloud,
  deviceDelete,
  deviceSetWorkspacePaths,
  cliLoginInit,
  cliLoginPoll,
  cliLoginRequest,
  cliLoginApprove,
  cliLoginDeny,
  cliEnrollSelf,
  cliDeviceToken,
  cliMayflyToken,
] satisfies AnyOperation[];
