import cuttle


def test_new_game_deals_five_and_six_cards():
    g = cuttle.Game(seed=1)
    assert len(g.hand(0)) == 5 and len(g.hand(1)) == 6 and len(g.deck) == 41
    assert g.phase == "main" and g.to_move == 0 and "draw" in g.legal_moves
