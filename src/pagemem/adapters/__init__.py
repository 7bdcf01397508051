"""Pagemem behind other frameworks' interfaces, each an optional extra:
`pagemem[langgraph]` (`adapters.langgraph.PagememStore`) and `pagemem[openai-agents]`
(`adapters.openai_agents.PagememSession`)."""
