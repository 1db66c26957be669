"""Wheel smoke test: start `kopt mcp` as a user's editor would, list its tools and call the two that read kopt's
bundled data (the bench tasks and the knowledge base). Exits non-zero when either comes back empty."""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(workspace: str) -> int:
    params = StdioServerParameters(command="kopt", args=["mcp", "--workspace", workspace])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = sorted(t.name for t in (await session.list_tools()).tools)
            tasks = json.loads((await session.call_tool("list_tasks", {})).content[0].text)
            hits = json.loads((await session.call_tool("kb_search", {"query": "wgmma"})).content[0].text)
    print(f"mcp tools: {' '.join(names)}")
    print(f"mcp list_tasks: {len(tasks.get('tasks', []))} tasks; kb_search wgmma: {len(hits.get('hits', []))} hits")
    return 0 if names and tasks.get("tasks") and hits.get("hits") else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(asyncio.wait_for(main(sys.argv[1]), 120)))
