"""The order in which waiting bot jobs get a worker (`FairQueue`): urgency first, then the
client served least recently, then its game served least recently."""

from __future__ import annotations

import asyncio

from tlatelolco.web.workers.fairness import HINT, IDLE, PERSON, REVIEW, FairQueue, Ticket

RUNNING = Ticket(client="running")


async def _order(queue: FairQueue, tickets: list[Ticket],
                 running: Ticket = RUNNING) -> list[Ticket]:
    """Queue every ticket behind one running job, then free slots one at a time."""
    await queue.acquire(running)
    served: list[Ticket] = []

    async def job(ticket: Ticket) -> None:
        await queue.acquire(ticket)
        served.append(ticket)

    tasks = [asyncio.create_task(job(t)) for t in tickets]
    await asyncio.sleep(0)
    for _ in tickets:
        queue.release()
        await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    return served


def test_one_client_with_many_games_gets_no_more_turns_than_a_client_with_one():
    attacker = [Ticket(PERSON, "attacker", f"g{i}") for i in range(4) for _ in range(3)]
    victim = Ticket(PERSON, "victim", "mine")
    served = asyncio.run(_order(FairQueue(1), [*attacker, victim], running=attacker[0]))
    assert served.index(victim) == 0  # the attacker was served last: the victim goes next


def test_clients_take_turns_and_one_back_from_a_pause_goes_first():
    a = [Ticket(PERSON, "a", f"g{i}") for i in range(3)]
    b = [Ticket(PERSON, "b", "g") for _ in range(3)]
    served = asyncio.run(_order(FairQueue(1), [*a, *b], running=a[0]))
    assert [t.client for t in served] == ["b", "a", "b", "a", "b", "a"]


def test_urgent_classes_first_whatever_the_arrival_order():
    tickets = [Ticket(REVIEW, "a", "r"), Ticket(IDLE, "b", "i"), Ticket(PERSON, "c", "p"),
               Ticket(HINT, "d", "h")]
    served = asyncio.run(_order(FairQueue(1), tickets))
    assert [t.priority for t in served] == [HINT, PERSON, IDLE, REVIEW]


def test_a_clients_games_take_turns_and_a_game_keeps_its_order():
    tickets = [Ticket(PERSON, "a", "g1"), Ticket(PERSON, "a", "g1"), Ticket(PERSON, "a", "g2")]
    served = asyncio.run(_order(FairQueue(1), tickets))
    assert [t.game for t in served] == ["g1", "g2", "g1"]


def test_a_cancelled_waiter_leaves_the_queue_and_a_slot_is_never_lost():
    async def scenario() -> None:
        queue = FairQueue(1)
        await queue.acquire()
        waiting = asyncio.create_task(queue.acquire(Ticket(PERSON, "a", "g")))
        await asyncio.sleep(0)
        assert queue.waiting() == 1
        waiting.cancel()
        await asyncio.sleep(0)
        assert queue.waiting() == 0
        queue.release()
        assert queue.running == 0
        await asyncio.wait_for(queue.acquire(), 1)  # the slot is free again

    asyncio.run(scenario())


def test_more_slots_wake_waiters_at_once():
    async def scenario() -> None:
        queue = FairQueue(0)
        waiting = [asyncio.create_task(queue.acquire(Ticket(IDLE, str(i)))) for i in range(3)]
        await asyncio.sleep(0)
        assert not any(t.done() for t in waiting)
        queue.slots = 2
        await asyncio.sleep(0)
        assert sum(t.done() for t in waiting) == 2 and queue.running == 2

    asyncio.run(scenario())
