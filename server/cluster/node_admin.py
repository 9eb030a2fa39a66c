"""`citadels admin` on a cluster node: the host's commands (server/admin/service.py) over this node's
part of the cluster, through the node's own admin socket (`<saves>/admin.sock`, as a single server's).

    admin = NodeAdminService(node, server)      # handed to server.admin.socket_server.AdminSocket

A node answers for what it holds: its own sessions (listed, kicked, told a broadcast, closed by a
ban) and the tables it runs (listed, closed). `citadels serve --workers N` asks every worker and puts
their answers together (server/cluster/workers_admin.py), so the host sees one server; nodes on
several machines are asked one by one.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from server.admin import protocol as p
from server.admin.service import AdminService

if TYPE_CHECKING:
    from server.cluster.node import ClusterNode


class NodeLobbyView:
    """What the host's commands read of a lobby, on a cluster node: its sessions are the front's (this
    node's SSH sessions), its tables the owner's (those this node runs), the bans the node's."""

    def __init__(self, node: ClusterNode) -> None:
        self.node = node
        self.config = node.config

    @property
    def sessions(self) -> set[Any]:
        return self.node.front.sessions

    @property
    def tables(self) -> dict[str, Any]:
        return self.node.desk.lobby.tables

    @property
    def origins(self) -> dict[str, Any]:
        return self.node.desk.lobby.origins

    @property
    def bans(self) -> Any:
        return self.node.front.bans

    @property
    def refusals(self) -> Counter[str]:
        return self.node.front.refusals

    def loaded_game(self, t: Any) -> Any:
        return self.node.desk.lobby.loaded_game(t)

    async def close_by_host(self, table_id: str, why: str) -> str:
        return await self.node.desk.lobby.close_by_host(table_id, why)


class NodeAdminService(AdminService):
    """The host's commands on one node of a cluster."""

    def __init__(self, node: ClusterNode, server: Any = None) -> None:
        super().__init__(NodeLobbyView(node), server)
        self.node = node

    async def _tables(self, req: p.Tables) -> p.Reply:
        # the owner's lobby: its tables and the members at them (from every node)
        return await AdminService(self.node.desk.lobby, self.server)._tables(req)

    async def _status(self, req: p.Status) -> p.Reply:
        reply = await super()._status(req)
        reply.data["refusals"] = dict(self.node.front.refusals + self.node.desk.lobby.refusals)
        reply.data["node"] = self.node.node_id
        return reply
