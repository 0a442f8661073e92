"""The evaluation thread's job queue (worker.Mailbox): first in, first out,
from any number of producers, with the consumer never missing a wake-up."""
import threading

from rusty.worker import Mailbox


def test_items_come_out_in_order():
    box = Mailbox()
    for i in range(5):
        box.put(i)
    assert [box.get() for _ in range(5)] == [0, 1, 2, 3, 4]


def test_a_waiting_consumer_gets_every_item_of_several_producers():
    box = Mailbox()
    got = []

    def consume():
        while True:
            item = box.get()
            if item is None:
                return
            got.append(item)

    consumer = threading.Thread(target=consume)
    consumer.start()
    producers = [threading.Thread(target=lambda k=k: [box.put((k, i)) for i in range(500)])
                 for k in range(4)]
    for p in producers:
        p.start()
    for p in producers:
        p.join()
    box.put(None)
    consumer.join(30)
    assert not consumer.is_alive()
    assert sorted(got) == [(k, i) for k in range(4) for i in range(500)]
    for k in range(4):          # each producer's items in the order it put them
        assert [i for kk, i in got if kk == k] == list(range(500))


def waits_for_put(box):
    """True if a consumer of `box` blocks until an item is put, then takes it."""
    got = []
    consumer = threading.Thread(target=lambda: got.append(box.get()))
    consumer.start()
    consumer.join(0.2)
    waited = consumer.is_alive() and got == []
    box.put('job')
    consumer.join(30)
    return waited and got == ['job']


def test_a_consumer_waits_until_an_item_arrives():
    assert waits_for_put(Mailbox())


def test_a_wake_up_without_an_item_is_absorbed():
    # put's release can come without an item (Ctrl-C landing before the append):
    # the consumer looks again instead of taking a job that is not there.
    box = Mailbox()
    box.wake.release()
    assert waits_for_put(box)
